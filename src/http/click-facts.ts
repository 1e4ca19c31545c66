// The facts a link's redirect rules read about a click (src/links/router.ts ClickFacts), on the
// thread that answers clicks. Only links with rules get here, and each fact is worked out when a
// condition first asks for it: a rule on the query string never parses the User-Agent. What
// repeats across clicks is kept (bounded): a User-Agent's browser, system and device, an
// address's country. The recorder works out the same facts again for the stats, on its thread;
// the two never wait for each other.

import { classifyUserAgent, type Client } from "../visits/ua.ts";
import { clientAddress, type TrustedProxies } from "../visits/client-ip.ts";
import { openCountryLookup } from "../visits/geo.ts";
import { createCountryResolver, type CountryResolver } from "../visits/country.ts";
import { createVisitorIds, userAgentDigest, type SaltStore, type VisitorIds } from "../visits/visitor-id.ts";
import { NEEDS_COUNTRY, NEEDS_VISITOR, type ClickFacts } from "../links/router.ts";
import { Lru } from "../util/lru.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { Logger } from "../log.ts";
import { peerAddress, type PeerServer } from "./request-origin.ts";

const AGENTS = 10_000;

export type ClickFactsSource = {
  /** Resolves once what a route needs (NEEDS_* flags) is ready: the country lookup read, the day's salt known. */
  ready(needs: number, now: number): MaybePromise<void>;
  /** `peer()`: the socket peer, read once for the rules and the click's record. */
  facts(request: Request, server: PeerServer, requestUrl: string, linkId: string, now: number): ClickFacts & { peer(): string };
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

type Agent = Client & { digest: string };

export function createClickFactsSource(o: ClickFactsOptions): ClickFactsSource {
  const agents = new Lru<string, Agent>(AGENTS);
  const agentOf = (ua: string | null): Agent => {
    const key = ua ?? "";
    let a = agents.get(key);
    if (a === undefined) agents.set(key, (a = { ...classifyUserAgent(ua), digest: userAgentDigest(ua) }));
    return a;
  };
  // Read only when a link first asks for a country: most instances never pay for it.
  let countries: CountryResolver | null = null;
  let loading: Promise<void> | null = null;
  const loadCountries = (): Promise<void> =>
    (loading ??= openCountryLookup(o.geoipDb, { log: o.log }).then(
      (lookup) => {
        countries = createCountryResolver(o.geoipDb, lookup, o.log);
      },
      (err: unknown) => {
        // The recorder opened the same file at start: only a file gone since can fail here.
        o.log.error("the country lookup for redirect rules could not be read; country conditions do not hold", { error: String(err) });
        countries = { country: () => null, reload: async () => {}, current: () => { throw err; }, stop: () => {} };
      },
    ));
  let visitors: VisitorIds | null = null;
  const context: FactsContext = { trusted: o.trusted, agentOf, country: (address) => countries?.country(address) ?? null, visitor: (...a) => visitors!.of(...a) ?? 0 };

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
    facts: (request, server, requestUrl, linkId, now) => new Facts(request, server, requestUrl, linkId, now, context),
    reloadGeo() {
      void countries?.reload();
    },
  };
}

type FactsContext = {
  trusted: TrustedProxies;
  agentOf: (ua: string | null) => Agent;
  country: (address: string) => string | null;
  visitor: (ts: number, linkId: string, address: string, agent: string) => number;
};

/** One click's facts, each worked out on first use (one object a click: no closures made per click). */
class Facts implements ClickFacts {
  #agent: Agent | null = null;
  #peer: string | null = null;
  #address: string | null = null;
  #language: string | null | undefined = undefined;
  constructor(
    readonly request: Request,
    readonly server: PeerServer,
    readonly requestUrl: string,
    readonly linkId: string,
    readonly now: number,
    readonly context: FactsContext,
  ) {}
  #client(): Agent {
    return (this.#agent ??= this.context.agentOf(this.request.headers.get("user-agent")));
  }
  browser() {
    return this.#client().browser;
  }
  os() {
    return this.#client().os;
  }
  device() {
    return this.#client().device;
  }
  language() {
    if (this.#language === undefined) this.#language = preferredLanguage(this.request.headers.get("accept-language"));
    return this.#language;
  }
  hasParam(key: string, value: string | undefined) {
    return hasParam(this.requestUrl, key, value);
  }
  /** the socket peer, read once (the click's record needs it too) */
  peer(): string {
    return (this.#peer ??= peerAddress(this.server, this.request));
  }
  address() {
    return (this.#address ??= clientAddress(this.peer(), this.request.headers, this.context.trusted));
  }
  country() {
    return this.context.country(this.address());
  }
  visitor() {
    return this.context.visitor(this.now, this.linkId, this.address(), this.#client().digest);
  }
}

/**
 * Whether a URL's query has the parameter (with the value, when given), decoded as a form would
 * be: a scan of its pairs, nothing parsed into a structure.
 */
export function hasParam(url: string, key: string, value: string | undefined): boolean {
  const q = url.indexOf("?");
  if (q === -1) return false;
  const end = url.indexOf("#", q);
  const query = end === -1 ? url.slice(q + 1) : url.slice(q + 1, end);
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (decoded(eq === -1 ? pair : pair.slice(0, eq)) !== key) continue;
    if (value === undefined || decoded(eq === -1 ? "" : pair.slice(eq + 1)) === value) return true;
  }
  return false;
}

function decoded(text: string): string {
  if (!text.includes("%") && !text.includes("+")) return text;
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/**
 * The visitor's most preferred language (RFC 9110 q-values; the first of equals), lower case, or
 * null. "*" and q=0 name no language.
 */
export function preferredLanguage(header: string | null): string | null {
  if (header === null) return null;
  let best: string | null = null;
  let bestQ = 0;
  for (const part of header.slice(0, 512).split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const name = tag.trim().toLowerCase();
    if (name === "" || name === "*") continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k?.trim() === "q" && v !== undefined) q = Number(v);
    }
    if (Number.isFinite(q) && q > bestQ) {
      best = name;
      bestQ = q;
    }
  }
  return best;
}
