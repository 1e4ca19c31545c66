// How a link is named in memory, in one string: its alias on the default domain, `alias@domain` on
// another (docs/architecture.md: A link's identity). An alias never holds "@" (src/links/alias.ts),
// so the key is unambiguous; on an instance with one domain every key is the alias itself, and the
// click path, the caches and PostgreSQL's change notices carry what they carried before.

import { DEFAULT_DOMAIN } from "./domain.ts";
import { looksLikeId } from "../links/alias.ts";

/** The key of (domain, alias); domain is the stored one ('' for the default domain). */
export function linkKey(domain: string, alias: string): string {
  return domain === DEFAULT_DOMAIN ? alias : `${alias}@${domain}`;
}

/** The stored domain and the alias a key names. */
export function keyParts(key: string): { domain: string; alias: string } {
  const at = key.indexOf("@");
  return at === -1 ? { domain: DEFAULT_DOMAIN, alias: key } : { domain: key.slice(at + 1), alias: key.slice(0, at) };
}

/** Whether a key names an alias that can exist: cheaper than a lookup for junk. */
export function looksLikeKey(key: string): boolean {
  return looksLikeId(keyParts(key).alias);
}
