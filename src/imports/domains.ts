// Where an imported link lands here (docs/importing.md: Domains): on the domain of ours that
// --domain-map names for its source domain; else on ours of the same name; else on that domain,
// added for it. The source's default domain (null) is our default. Written once for the command
// line and the dashboard's import; nothing else decides it.

import { DomainDirectory, hostName, type DomainEntry } from "../domains/directory.ts";
import { DEFAULT_DOMAIN, domainName, type Domain } from "../domains/domain.ts";
import type { SourceLink } from "./source.ts";

/** --domain-map: a source domain (lower-case) and ours it lands on ("" for our default). */
export type DomainMap = ReadonlyMap<string, string>;

/** Where a link lands: its stored domain ('' for our default) and that domain's name (null: a default without one). */
export type Place = { domain: string; name: string | null };

export type Landing = {
  /** The place of a link's source domain here, or why it has none (a problem the conflict policy resolves). */
  place(link: SourceLink): Place | { problem: string };
  /** Domains of the source we do not have: added before the links are written. */
  added: string[];
  /** Something wrong with --domain-map itself: the import is refused, whatever the policy. */
  refusal: string | null;
  /** Said, not in the way: map entries the source never names. */
  notes: string[];
};

/** The words that name our default domain on the right of a map entry, besides its own name. */
const DEFAULT_WORDS = ["", "default"];

/**
 * `old=new[,old=new]` (the flag, repeated flags joined by commas), or the dashboard's object
 * `{ old: new }`. Each side is a host name; new may be "" or "default" for our default domain.
 */
export function parseDomainMap(given: string | Record<string, unknown> | undefined | null): { ok: true; map: DomainMap } | { ok: false; error: string } {
  const map = new Map<string, string>();
  if (given === undefined || given === null) return { ok: true, map };
  const pairs: [string, unknown][] =
    typeof given === "string"
      ? given.split(",").filter((p) => p.trim() !== "").map((p) => (p.includes("=") ? [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] : [p, undefined]))
      : Object.entries(given);
  for (const [from, to] of pairs) {
    const shown = `${from}=${typeof to === "string" ? to : ""}`;
    if (typeof to !== "string") return { ok: false, error: `--domain-map: "${from}" is not OLD=NEW (a source domain, then one of ours, or "default")` };
    const source = domainName(from);
    if (source === null) return { ok: false, error: `--domain-map ${shown}: "${from.trim()}" is not a domain name` };
    const target = to.trim().toLowerCase();
    const ours = DEFAULT_WORDS.includes(target) ? "" : domainName(target);
    if (ours === null) return { ok: false, error: `--domain-map ${shown}: "${to.trim()}" is not a domain name (nor "default")` };
    if (map.has(source) && map.get(source) !== ours) return { ok: false, error: `--domain-map names ${source} twice, for two domains` };
    map.set(source, ours);
  }
  return { ok: true, map };
}


/**
 * Where each source domain lands, decided once for the whole import from the domains we have now
 * (`known`, as the repository lists them) and --base-url's host.
 */
export function landing(links: Iterable<SourceLink>, map: DomainMap, known: readonly Domain[], baseHost: string | null): Landing {
  const directory = new DomainDirectory(baseHost, () => known);
  void directory.reload();
  const fallback = directory.defaultDomain;
  const ours = (name: string): DomainEntry | null => directory.byName(name);
  const placeOf = (entry: DomainEntry): Place => ({ domain: entry.key, name: entry.name });
  const places = new Map<string | null, Place | { problem: string }>([[null, placeOf(fallback)]]);
  const added: string[] = [];
  const notes: string[] = [];
  let refusal: string | null = null;
  const named = new Set<string>();
  for (const link of links) {
    if (link.domain === null || places.has(link.domain)) continue;
    const source = domainName(link.domain);
    if (source !== null) named.add(source);
    const mapped = source === null ? undefined : map.get(source);
    if (mapped !== undefined) {
      const entry = mapped === "" ? fallback : ours(mapped);
      if (entry === null) refusal ??= `--domain-map ${source}=${mapped}: ${mapped} is not a domain here (shortener domain list); add it first (shortener domain add ${mapped}), or leave the entry out to keep the source's domain`;
      places.set(link.domain, entry === null ? { problem: "its domain is mapped to one that is not here" } : placeOf(entry));
      continue;
    }
    if (source === null) {
      places.set(link.domain, { problem: `its domain "${link.domain}" is no host name this shortener can keep: map it with --domain-map ${link.domain}=DOMAIN` });
      continue;
    }
    const entry = ours(source);
    if (entry !== null) places.set(link.domain, placeOf(entry));
    else if (fallback.name === null) {
      // A domain added beside a default without a name would leave this instance answering that
      // domain alone (docs/several-domains.md: Hosts): the default is named first, or the domain mapped.
      places.set(link.domain, {
        problem: `its domain ${source} is not here, and cannot be added while this instance's default domain has no name: set --base-url (or add yours first: shortener domain add NAME), or map it with --domain-map ${source}=default`,
      });
    } else {
      if (!added.includes(source)) added.push(source);
      places.set(link.domain, { domain: source, name: source });
    }
  }
  for (const source of map.keys()) if (!named.has(source)) notes.push(`--domain-map ${source}: the source has no links on ${source}`);
  return { place: (link) => places.get(link.domain)!, added, refusal, notes };
}

/**
 * A link as the report names it: by its source key where it lands as before domains (a link of the
 * source's default domain on ours, or one that cannot land), else domain/code here, and where it
 * came from when that is another domain.
 */
export function shownAt(link: SourceLink, place: Place | { problem: string }, id: string | null = link.code): string {
  if ("problem" in place || id === null || (place.domain === DEFAULT_DOMAIN && link.domain === null)) return link.key;
  const here = place.name === null ? id : `${place.name}/${id}`;
  return link.domain === null || link.domain.toLowerCase() === place.name ? here : `${here} (${link.key} at the source)`;
}
