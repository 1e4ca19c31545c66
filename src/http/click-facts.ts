// The facts a link's redirect rules read about a click (src/links/router.ts ClickFacts), on the
// thread that answers clicks. Only links with rules get here, and each fact is worked out when a
// condition first asks for it: a rule on the query string never parses the User-Agent. What
// repeats across clicks is kept (bounded): a User-Agent's browser, system and device. An
// address's country comes from the range table (docs/clicks.md: How clicks are counted, "The
// country"), built here too when a link first asks for a country. The recorder works out the same facts again for the
// stats, on its thread; the two never wait for each other.

import { createClientClassifier, type Client } from "../visits/ua.ts";
import { clientAddress, type TrustedProxies } from "../visits/client-ip.ts";
import { openCountryLookup } from "../visits/geo.ts";
import { createCountryResolver, type CountryResolver } from "../visits/country.ts";
import { createVisitorIds, userAgentDigest, type SaltStore, type VisitorIds } from "../visits/visitor-id.ts";
import { NEEDS_COUNTRY, NEEDS_VISITOR, type ClickFacts } from "../links/router.ts";
import { Lru } from "../util/lru.ts";
import { preferredLanguage } from "../lang.ts";
import { queryHas } from "../links/destination.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { Logger } from "../log.ts";
import type { RequestClick } from "./click.ts";

const AGENTS = 10_000;

export type ClickFactsSource = {
  /** Resolves once what a route needs (NEEDS_* flags) is ready: the country lookup read, the day's salt known. */
  ready(needs: number, now: number): MaybePromise<void>;
  /** The click's facts; its socket peer is the click's own, read once for the rules and the record. */
  facts(click: RequestClick): ClickFacts;
  /** SIGHUP: the --geoip-db file is read again. */
  reloadGeo(): void;
};

export type ClickFactsOptions = {
  trusted: TrustedProxies;
  /** --geoip-db; null = the embedded database */
  geoipDb: string | null;
  /** the day's visitor salts, as the recorder uses them (the same visitor key picks a variant) */
  salts: SaltStore;
  log: Logger;
};

// The recorder opened the same file at start: only a file gone since can fail here, and then no
// country condition holds.
const NO_COUNTRIES: Pick<CountryResolver, "country" | "reload"> = { country: () => null, reload: async () => {} };

export function createClickFactsSource(o: ClickFactsOptions): ClickFactsSource {
  const digests = new Lru<string, string>(AGENTS);
  const digestOf = (ua: string | null): string => {
    const key = ua ?? "";
    let d = digests.get(key);
    if (d === undefined) digests.set(key, (d = userAgentDigest(ua)));
    return d;
  };
  // Read only when a link first asks for a country: most instances never pay for it.
  let countries: Pick<CountryResolver, "country" | "reload"> | null = null;
  let loading: Promise<void> | null = null;
  const loadCountries = (): Promise<void> =>
    (loading ??= openCountryLookup(o.geoipDb, { log: o.log }).then(
      (lookup) => {
        countries = createCountryResolver(o.geoipDb, lookup, o.log);
      },
      (err: unknown) => {
        o.log.error("the country lookup for redirect rules could not be read; country conditions do not hold", { error: String(err) });
        countries = NO_COUNTRIES;
      },
    ));
  let visitors: VisitorIds | null = null;
  const context: FactsContext = {
    trusted: o.trusted,
    // A bot is routed by the browser it poses as, not by its name in the stats (docs/redirect-rules.md: Redirect rules).
    clientOf: createClientClassifier(AGENTS, { nameBots: false }),
    digestOf,
    country: (address) => countries?.country(address) ?? null,
    visitor: (...a) => visitors!.of(...a) ?? 0,
  };

  return {
    ready(needs, now) {
      if (needs === 0) return;
      const waits: Promise<void>[] = [];
      if (needs & NEEDS_COUNTRY && countries === null) waits.push(loadCountries());
      if (needs & NEEDS_VISITOR) {
        visitors ??= createVisitorIds(o.salts, Date.now);
        const salt = visitors.prepare([now]);
        if (salt instanceof Promise) waits.push(salt);
      }
      return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
    },
    facts: (click) => new Facts(click, context),
    reloadGeo() {
      void countries?.reload();
    },
  };
}

type FactsContext = {
  trusted: TrustedProxies;
  /** a User-Agent's browser, system and device (ua.ts, cached) */
  clientOf: (ua: string | null) => Client;
  /** a User-Agent's digest for the visitor key (visitor-id.ts, cached) */
  digestOf: (ua: string | null) => string;
  country: (address: string) => string | null;
  visitor: (ts: number, linkSeq: number, address: string, agent: string) => number;
};

/** One click's facts, each worked out on first use (one object a click: no closures made per click). */
class Facts implements ClickFacts {
  #client: Client | null = null;
  #address: string | null = null;
  #language: string | null | undefined = undefined;
  constructor(
    readonly click: RequestClick,
    readonly context: FactsContext,
  ) {}
  #agent(): Client {
    return (this.#client ??= this.context.clientOf(this.click.header("user-agent")));
  }
  browser() {
    return this.#agent().browser;
  }
  os() {
    return this.#agent().os;
  }
  device() {
    return this.#agent().device;
  }
  language() {
    if (this.#language === undefined) this.#language = preferredLanguage(this.click.header("accept-language"));
    return this.#language;
  }
  hasParam(key: string, value: string | undefined) {
    return queryHas(this.click.url, key, value);
  }
  address() {
    return (this.#address ??= clientAddress(this.click.peer(), this.click.headers, this.context.trusted));
  }
  country() {
    return this.context.country(this.address());
  }
  visitor() {
    return this.context.visitor(this.click.now, this.click.linkSeq, this.address(), this.context.digestOf(this.click.header("user-agent")));
  }
}
