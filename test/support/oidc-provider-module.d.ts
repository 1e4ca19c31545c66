// oidc-provider ships no types (DefinitelyTyped has them, a dependency for one test harness): the
// harness uses a handful of its calls, as the package's own documentation shows them.
declare module "oidc-provider";
