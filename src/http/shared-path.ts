// Where a share link's page is, and request paths as they may be logged (docs/statistics.md: Sharing
// statistics): a share's token is a credential, and a credential is never logged.

/** A share's page: on the service's own origin (the token finds the link, whatever its domain). */
export const SHARED_PAGE_PATH = "/stats/shared/";

/** The path with what follows /stats/shared/ (the page's, the API's, a language's) left out. */
export function loggablePath(path: string): string {
  const at = path.indexOf(SHARED_PAGE_PATH);
  return at === -1 ? path : `${path.slice(0, at + SHARED_PAGE_PATH.length)}…`;
}
