// The start-up rule (docs/several-domains.md: Which domain is the default): with --base-url set and
// the default domain stored under another name, that row takes the base URL's host. Its links are
// stored as '' (DEFAULT_DOMAIN), so nothing moves; only its name, and with it the short URLs.

import type { DomainRepository } from "../../domains/repository.ts";
import type { Logger } from "../../log.ts";

/** "ok", or why the service cannot start (another domain has the base URL's host already). */
export async function nameDefaultByBaseUrl(domains: Pick<DomainRepository, "settings" | "rename">, baseHost: string | null, log: Logger): Promise<"ok" | { error: string }> {
  if (baseHost === null) return "ok";
  const rows = await domains.settings();
  const stored = rows.find((d) => d.isDefault);
  if (stored === undefined || stored.name === baseHost) return "ok";
  if (rows.some((d) => d.name === baseHost)) {
    return {
      error: `--base-url names ${baseHost}, which is a domain of its own, but the default domain is ${stored.name}: make ${baseHost} the default first (shortener domain default ${baseHost}, run without --base-url), rename it away (shortener domain rename ${baseHost} OTHER), or start with --base-url https://${stored.name}`,
    };
  }
  const renamed = await domains.rename(stored.name, baseHost);
  if (typeof renamed !== "object") {
    // Another instance starting beside this one (PostgreSQL) may have renamed it first.
    if ((await domains.settings()).find((d) => d.isDefault)?.name === baseHost) return "ok";
    return { error: `renaming the default domain ${stored.name} to ${baseHost} failed (${renamed}); try again` };
  }
  log.info(`the default domain ${stored.name} is now named ${baseHost}, after --base-url (its links moved with it)`, { from: stored.name, to: baseHost });
  return "ok";
}
