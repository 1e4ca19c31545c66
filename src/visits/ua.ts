// User-Agent -> the browser/OS/device names we count, plus the bot flag.
// Names are folded into families so "Mobile Safari" and "Safari" are one row in the stats; a bot's
// browser is the bot's own name (bot-names.ts), so the browser breakdown says who fetched the link.

import { UAParser } from "ua-parser-js";
import { Lru } from "../util/lru.ts";
import { isBotUserAgent } from "./bots.ts";
import { botName } from "./bot-names.ts";

export type Client = { browser: string; os: string; device: string; isBot: boolean };

/** Longer UAs are trimmed, not rejected: real ones stay well under this and it bounds regex work and cache memory
 *  (ua-parser-js itself reads only the first 500 characters; isbot sees all 512). */
export const MAX_UA_LENGTH = 512;

export const UNKNOWN = "Unknown";

// ua-parser-js name (lower-cased: some names are copied verbatim from the UA) -> family we count.
// Variants of one product count as that product; names not listed here are kept as parsed
// (e.g. "Samsung Internet", "Edge", "Vivaldi", "Instagram", "Facebook", "WebKit" = an app's bare web view).
export const BROWSER_FAMILY: Readonly<Record<string, string>> = {
  "mobile safari": "Safari",
  safari: "Safari",
  chrome: "Chrome",
  "chrome mobile": "Chrome",
  "mobile chrome": "Chrome",
  "chrome webview": "Chrome", // Android System WebView: apps' in-app pages
  "chrome headless": "Chrome", // flagged as a bot anyway
  firefox: "Firefox",
  "mobile firefox": "Firefox",
  "firefox mobile": "Firefox",
  "firefox focus": "Firefox",
  klar: "Firefox", // Firefox Focus's German-market name
  "firefox reality": "Firefox",
  fennec: "Firefox", // old Firefox for Android
  opera: "Opera",
  "opera mobi": "Opera",
  "opera tablet": "Opera",
  "opera mini": "Opera",
  "opera touch": "Opera",
  "opera gx": "Opera",
  "opera coast": "Opera",
  edge: "Edge",
  gsa: "Google App", // Google Search app on iOS; "GSA" means nothing to readers
};

// Same idea for operating systems: drop versions and distros, keep the platform people recognise.
export const OS_FAMILY: Readonly<Record<string, string>> = {
  "mac os": "macOS",
  macos: "macOS",
  ios: "iOS",
  android: "Android",
  "android-x86": "Android",
  "chromium os": "ChromeOS",
  "chrome os": "ChromeOS",
  windows: "Windows",
  linux: "Linux",
  ...Object.fromEntries(
    [
      "ubuntu", "kubuntu", "xubuntu", "lubuntu", "debian", "fedora", "suse", "opensuse", "gentoo", "arch",
      "slackware", "mandriva", "centos", "pclinuxos", "red hat", "redhat", "zenwalk", "linpus", "raspbian",
      "deepin", "manjaro", "elementary os", "sabayon", "linspire", "mint", "mageia", "vectorlinux",
    ].map((distro) => [distro, "Linux"]),
  ),
};

// ua-parser-js device.type values we keep ("xr" exists from 2.x); no type means a desktop/laptop.
export const DEVICE_TYPES: ReadonlySet<string> = new Set(["mobile", "tablet", "smarttv", "console", "wearable", "embedded", "xr"]);

function family(name: string | undefined, table: Readonly<Record<string, string>>): string {
  if (!name) return UNKNOWN;
  return table[name.toLowerCase()] ?? name;
}

export type ClassifyOptions = {
  /**
   * A bot's browser is its name, as the stats count it (docs/clicks.md: Bots and their names), or
   * with false the browser its string names or poses as, which redirect rules read (docs/redirect-rules.md: Redirect rules).
   * Default true.
   */
  nameBots?: boolean;
};

/** Parses one User-Agent (null/empty allowed) into normalized browser/OS/device names and a bot flag. */
export function classifyUserAgent(userAgent: string | null, options: ClassifyOptions = {}): Client {
  const ua = (userAgent ?? "").slice(0, MAX_UA_LENGTH);
  const isBot = isBotUserAgent(ua);
  // Only the parts we count: getResult() would also work out the engine and CPU. A named bot's
  // browser is not parsed at all: its name takes that place.
  const parser = new UAParser(ua);
  const os = parser.getOS();
  const device = parser.getDevice();
  return {
    browser: isBot && options.nameBots !== false ? botName(ua) : family(parser.getBrowser().name, BROWSER_FAMILY),
    os: family(os.name, OS_FAMILY),
    device: device.type && DEVICE_TYPES.has(device.type) ? device.type : "desktop",
    isBot,
  };
}

/** classifyUserAgent behind a bounded LRU keyed by the (trimmed) UA: most clicks repeat a UA already seen, and a parse is ~50 µs. */
export function createClientClassifier(maxEntries = 10_000, options: ClassifyOptions = {}): (userAgent: string | null) => Client {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  const cache = new Lru<string, Client>(maxEntries);
  return (userAgent) => {
    // Keyed by the trimmed string: the result is the same, and a flood of huge UAs cannot blow up memory.
    const key = (userAgent ?? "").slice(0, MAX_UA_LENGTH);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    // Frozen because every caller with this UA shares the object.
    const client = Object.freeze(classifyUserAgent(key, options));
    cache.set(key, client);
    return client;
  };
}
