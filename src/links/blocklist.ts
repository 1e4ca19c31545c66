// --blocklist FILE: destinations this instance refuses to link to. One entry a line, `#` starts a
// comment; a domain blocks itself and its subdomains; `/regex/` (optionally `/regex/i`) is tested
// against the whole URL, normalized and also percent-decoded. Offline abuse control: no lookups, no network.

import { percentDecoded } from "./url-rules.ts";

export type Blocklist = {
  /** True when the URL's host or the URL itself matches an entry. */
  matches(url: string): boolean;
  readonly domains: number;
  readonly patterns: number;
};

export const EMPTY_BLOCKLIST: Blocklist = { matches: () => false, domains: 0, patterns: 0 };

export class BlocklistError extends Error {}

/** Parses a blocklist file's text; throws BlocklistError naming the line of a bad entry. */
export function parseBlocklist(text: string): Blocklist {
  const domains = new Set<string>();
  const patterns: RegExp[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const regex = /^\/(.+)\/([a-z]*)$/.exec(line);
    if (regex) {
      if (!/^i?$/.test(regex[2]!)) throw new BlocklistError(`line ${index + 1}: only the i flag is supported: ${line}`);
      try {
        patterns.push(new RegExp(regex[1]!, regex[2]));
      } catch (err) {
        throw new BlocklistError(`line ${index + 1}: not a regular expression: ${line}`);
      }
      return;
    }
    const entry = line.replace(/\s+#.*$/, "");
    const host = canonicalHost(entry.replace(/^\*?\./, ""));
    if (host === null || /\s/.test(entry)) throw new BlocklistError(`line ${index + 1}: not a domain or /regex/: ${line}`);
    domains.add(host);
  });
  return {
    domains: domains.size,
    patterns: patterns.length,
    matches(url) {
      if (domains.size === 0 && patterns.length === 0) return false;
      const parsed = URL.parse(url);
      if (domains.size > 0 && parsed !== null) {
        // example.com blocks a.b.example.com: try the host and each parent domain.
        for (let h = canonicalHost(parsed.hostname); h !== null && h !== ""; h = parentDomain(h)) if (domains.has(h)) return true;
      }
      if (patterns.length === 0) return false;
      // A pattern sees the URL as browsers follow it (normalized: scheme and host lower-case,
      // IPv4 dotted, default port gone), and once more with its %XX escapes decoded, so that
      // ?%75rl= or ?url=%68ttps: cannot dodge an entry written for ?url=https:.
      const href = parsed?.href ?? url;
      const decoded = percentDecoded(href);
      return patterns.some((p) => p.test(href) || (decoded !== href && p.test(decoded)));
    },
  };
}

/** Lower-case, punycode (as URL gives it), without a trailing dot; null when not a host name. */
function canonicalHost(text: string): string | null {
  if (text === "" || /[/?#@:\s]/.test(text.replace(/^\[.*\]$/, ""))) return null;
  try {
    const host = new URL(`http://${text}/`).hostname.replace(/\.$/, "");
    return host === "" ? null : host;
  } catch {
    return null;
  }
}

function parentDomain(host: string): string | null {
  if (host.startsWith("[")) return null; // an IPv6 literal has no parent
  const dot = host.indexOf(".");
  return dot === -1 ? null : host.slice(dot + 1);
}
