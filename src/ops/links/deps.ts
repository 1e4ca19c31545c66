// What the links' operations need (docs/architecture.md: Operations): the ports and the service's
// settings, as the composition root (src/app-deps.ts) wires them. Each operation takes the part it uses.

import type { Config } from "../../config.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import type { Logger } from "../../log.ts";
import type { Blocklist } from "../../links/blocklist.ts";
import type { DestinationRules } from "../../links/create.ts";
import type { LinkLister } from "../../links/list.ts";
import type { LinkStore } from "../../links/store.ts";
import type { TitleFetcher } from "../../links/title-fetcher.ts";
import type { DailyCounts, OverviewReader } from "../../stats/overview.ts";

/** Anonymous creates per client address (--create-rate-limit): a token taken per create, or how long to wait. */
export type FloodLimit = { take(client: string, now: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } };

export type LinkOpsDeps = {
  config: Pick<Config, "createAccess" | "allowLoopbackDestinations" | "allowSchemes">;
  links: LinkStore;
  /** the domains, by name and by stored key */
  directory: DomainDirectory;
  lister: LinkLister;
  /** clicks per day of the last days, per link id (the list's sparklines) */
  dailyCounts: DailyCounts;
  overview: OverviewReader;
  /** the current --blocklist */
  blocklist: () => Blocklist;
  /** anonymous creates per client address */
  limiter: FloodLimit;
  log: Logger;
  now: () => number;
  /** titles fetched from the pages of links created without one (--fetch-titles); absent when off */
  titles?: Pick<TitleFetcher, "wanted">;
};

/**
 * What a destination is checked against: the hosts this service is reached under (the surface
 * knows them: the base URL, the request's Host, the listening address), --allow-loopback-destinations,
 * --allow-schemes (a webhook's URL ignores it: src/events/webhook-url.ts) and the --blocklist of this moment.
 */
export function destinationRules(ownHosts: readonly string[], deps: { config: Pick<LinkOpsDeps["config"], "allowLoopbackDestinations"> & Partial<Pick<LinkOpsDeps["config"], "allowSchemes">>; blocklist: LinkOpsDeps["blocklist"] }): DestinationRules {
  const blocklist = deps.blocklist();
  return { ownHosts, allowLocal: deps.config.allowLoopbackDestinations, allowSchemes: deps.config.allowSchemes, isBlocked: (url) => blocklist.matches(url) };
}
