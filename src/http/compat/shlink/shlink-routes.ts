// Every route of the Shlink surface (docs/shlink-api.md: Shlink API), one list per subject.

import type { ShlinkRoute } from "./shlink-route.ts";
import { DOMAIN_ROUTES } from "./shlink-domains.ts";
import { RULE_ROUTES } from "./shlink-rules.ts";

export const SHLINK_ROUTES: readonly ShlinkRoute[] = [
  ...DOMAIN_ROUTES,
  ...RULE_ROUTES,
];
