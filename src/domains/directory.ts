// The domains as the service answers them, in memory on each thread that needs them: which domain
// a request's host names (one map lookup), the default, and a domain's stored key (links.domain).
// Rows come from storage; the default's name from --base-url when set (docs/several-domains.md:
// Which domain is the default). Kept fresh by the changes made here (reload) and, for another
// process's (the CLI, another instance), by a reload asked by requests at most every 10 s: nothing
// wakes at rest.

import { then, type MaybePromise } from "../util/maybe.ts";
import { DEFAULT_DOMAIN, DEFAULT_SETTINGS, type Domain } from "./domain.ts";

/** A domain as requests meet it: its stored key ('' for the default) besides what it is. */
export type DomainEntry = Omit<Domain, "name"> & {
  /** null: the default domain of an instance that knows no name of its own (no --base-url, no domain) */
  name: string | null;
  /** links.domain of its links */
  key: string;
};

/** How often a request may ask for the domains to be read again (another process's changes). */
export const DOMAINS_FRESH_MS = 10_000;

export class DomainDirectory {
  private byHost = new Map<string, DomainEntry>();
  private entries: DomainEntry[] = [];
  private fallback: DomainEntry;
  private loadedAt = -Infinity;
  // The last host asked and its answer: a busy domain's clicks name the same host (one comparison).
  private lastHost = "\u0000";
  private lastEntry: DomainEntry | null = null;
  private loading: MaybePromise<void> | null = null;

  // Each host and the key its links are stored under, as last read ("" before the first read).
  private keys = "";

  /**
   * baseHost: --base-url's host name (lower-case, no port), or null. keysMoved: called when a read
   * finds a host's links under another key than before (a rename, a move, a new default made by
   * another process): what is kept by key (the link cache, live streams) must be forgotten.
   */
  constructor(
    private readonly baseHost: string | null,
    private readonly read: () => MaybePromise<readonly Domain[]>,
    private readonly keysMoved: () => void = () => {},
  ) {
    this.fallback = this.virtualDefault();
  }

  /** Reads the domains now (after a change made here, and at start). */
  reload(now = Date.now()): MaybePromise<void> {
    return then(this.read(), (rows) => this.use(rows, now));
  }

  /** Reads them again in the background when the last read is older than DOMAINS_FRESH_MS. */
  refreshIfStale(now: number): void {
    if (now - this.loadedAt < DOMAINS_FRESH_MS || this.loading !== null) return;
    this.loadedAt = now; // one try per period, whether it succeeds or not
    try {
      const pending = this.reload(now);
      if (pending instanceof Promise) {
        this.loading = pending;
        pending.catch(() => {}).finally(() => (this.loading = null));
      }
    } catch {
      // A read that failed keeps what was known; the next period tries again.
    }
  }

  /** Whether domains are configured: then only their hosts are answered (docs/several-domains.md: Hosts). */
  get configured(): boolean {
    return this.entries.length > 0;
  }

  /** The default domain (virtual, with the instance's flags, until one is added). */
  get defaultDomain(): DomainEntry {
    return this.fallback;
  }

  /** Every domain, the default first. */
  all(): readonly DomainEntry[] {
    return this.entries.length > 0 ? this.entries : [this.fallback];
  }

  /**
   * The domain a Host names (lower-case it first; port and trailing dot are ignored here), or null
   * when domains are configured and the host is none of them. localhost and address literals name
   * the default: the service reached directly (a health check, a scrape, Caddy's certificate ask).
   */
  forHost(host: string): DomainEntry | null {
    if (host === this.lastHost) return this.lastEntry;
    const entry = this.lookUp(host);
    this.lastHost = host;
    this.lastEntry = entry;
    return entry;
  }

  private lookUp(host: string): DomainEntry | null {
    const hit = this.byHost.get(host);
    if (hit !== undefined) return hit;
    if (!this.configured) return this.fallback;
    const name = hostName(host).toLowerCase();
    const entry = this.byHost.get(name);
    if (entry !== undefined) return entry;
    return isDirect(name) ? this.fallback : null;
  }

  /** The domain of a name as a client gives it (case, spaces and trailing dot aside); the default for '' or null, and for the default's name when no row holds it. */
  byName(name: string | null | undefined): DomainEntry | null {
    if (name === null || name === undefined || name === "") return this.fallback;
    const host = hostName(name.trim().toLowerCase());
    // The default named only by --base-url has no row: its name is still its name.
    return this.byHost.get(host) ?? (host === this.fallback.name ? this.fallback : null);
  }

  /** The domain whose links are stored under key. */
  byKey(key: string): DomainEntry | null {
    if (key === DEFAULT_DOMAIN) return this.fallback;
    return this.byHost.get(key) ?? null;
  }

  /** The domain's name of a stored key, as the API and pages show it: null for a default that has none. */
  nameOf(key: string): string | null {
    return key === DEFAULT_DOMAIN ? this.fallback.name : key;
  }

  private use(rows: readonly Domain[], now: number): void {
    const entries = rows.map((row): DomainEntry => ({ ...row, key: row.isDefault ? DEFAULT_DOMAIN : row.name }));
    const stored = entries.find((e) => e.isDefault);
    // --base-url names the default; a default row under another name is renamed at start (src/ops/domains).
    const fallback = stored ?? this.virtualDefault();
    if (stored === undefined && this.baseHost !== null && entries.length > 0) entries.unshift(fallback);
    entries.sort((a, b) => (a.isDefault === b.isDefault ? (a.name ?? "").localeCompare(b.name ?? "") : a.isDefault ? -1 : 1));
    const byHost = new Map<string, DomainEntry>();
    for (const entry of entries) if (entry.name !== null) byHost.set(entry.name, entry);
    this.entries = entries;
    this.byHost = byHost;
    this.fallback = fallback;
    this.loadedAt = now;
    this.lastHost = "\u0000";
    const keys = entries.map((e) => `${e.name}=${e.key}`).join(" ");
    if (this.keys !== "" && keys !== this.keys) this.keysMoved();
    this.keys = keys || " ";
  }

  private virtualDefault(): DomainEntry {
    return { ...DEFAULT_SETTINGS, name: this.baseHost, key: DEFAULT_DOMAIN, isDefault: true, createdAt: 0 };
  }
}

/** `https://name` (or http) of a domain with a name, else null (the request's own base is used). */
export function baseOf(entry: Pick<DomainEntry, "name" | "https">): string | null {
  return entry.name === null ? null : `${entry.https ? "https" : "http"}://${entry.name}`;
}

/** A Host header's name: without its port or the root's trailing dot. */
export function hostName(host: string): string {
  let end = host.length;
  if (host.charCodeAt(0) !== 91 /* [ */) {
    const colon = host.lastIndexOf(":");
    if (colon !== -1) end = colon;
  } else {
    end = host.indexOf("]") + 1;
  }
  if (host.charCodeAt(end - 1) === 46 /* . */) end--;
  return end === host.length ? host : host.slice(0, end);
}

function isDirect(name: string): boolean {
  return name === "localhost" || name.charCodeAt(0) === 91 || /^\d+\.\d+\.\d+\.\d+$/.test(name);
}
