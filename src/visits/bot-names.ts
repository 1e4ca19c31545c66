// The name a bot is counted under in the browser breakdown (docs/clicks.md: Bots and their names).
// Asked only for a User-Agent already found to be a bot (ua.ts), once per distinct string: the
// recorder works out a string's client once per hand-over dictionary, the click thread's rules and
// imports through a bounded cache. So the cost of a click stays what it was.
//
// A name is the bot's product token as the User-Agent spells it, cleaned: the word before its
// "/version" (`Googlebot/2.1` → "Googlebot"), without a version glued on with "-" or "_", only
// letters, digits and ". _ -", at most 32 characters. A few well-known fetchers that do not call
// themselves by the name people know are renamed (facebookexternalhit → "Facebook"). Where no token
// can be found the name is "Unknown", as for a browser nobody recognises.

import { isbotMatch } from "isbot";
// Discord's media proxy sends an old Firefox string: it is Discord, as its other fetcher.
import { DISCORD_MEDIA_PROXY } from "./bots.ts";

/** Longest name kept: real product tokens are far shorter; a made-up one cannot widen a row. */
export const MAX_BOT_NAME_LENGTH = 32;

const UNKNOWN = "Unknown";


// Tokens of well-known fetchers found anywhere in the string, tried first: most pose as a browser
// ("Mozilla/5.0 (…) … Applebot/0.1") or name themselves in words ("Screaming Frog SEO Spider"). The
// first in the string wins, and at one place the first listed (iMessage sends Facebook's and
// Twitter's tokens together). Not Googlebot: many strings say "like Googlebot"; Google's own
// crawlers say "compatible; Googlebot" or begin with it.
const EMBEDDED: readonly (readonly [token: string, name: string])[] = [
  ["facebookexternalhit/1.1 Facebot Twitterbot", "iMessage"],
  ["facebookexternalhit", "Facebook"],
  ["Applebot", "Applebot"],
  ["HeadlessChrome", "HeadlessChrome"],
  ["Google-PageRenderer", "Google-PageRenderer"],
  ["Mastodon", "Mastodon"],
  ["Bluesky", "Bluesky"],
  ["Screaming Frog", "Screaming Frog"],
  // the page testers bots.ts adds to isbot
  ["GTmetrix", "GTmetrix"],
  ["YLT Chrome/", "Yellow Lab Tools"],
  ["Miniature.io/", "Miniature.io"],
];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const EMBEDDED_TOKENS = new RegExp(EMBEDDED.map(([token]) => escape(token)).join("|"), "i");
const EMBEDDED_NAMES: ReadonlyMap<string, string> = new Map(EMBEDDED.map(([token, name]) => [token.toLowerCase(), name]));

// Product tokens (lower-cased) shown under the name people know the service by.
const RENAMED: ReadonlyMap<string, string> = new Map([
  ["facebookexternalhit", "Facebook"],
  ["facebookcatalog", "Facebook"],
  ["facebot", "Facebook"],
  ["slackbot-linkexpanding", "Slackbot"],
  ["slack-imgproxy", "Slackbot"],
  ["slackbot", "Slackbot"],
  ["googlebot", "Googlebot"],
  ["bingbot", "Bingbot"],
  ["skypeuripreview", "Skype"],
  ["snap", "Snapchat"], // "Snap URL Preview Service; bot; snapchat; …"
]);

// Words that name no product: browser and engine tokens a bot copies, URL parts, and words for
// what a bot does. A token that is one of them is passed over for the next way of finding a name.
const NOT_A_NAME = new Set([
  "mozilla", "compatible", "khtml", "gecko", "applewebkit", "webkit", "safari", "chrome", "chromium", "firefox", "edg", "edge", "opr", "version",
  "mobile", "windows", "linux", "android", "x11", "macintosh", "iphone", "ipad", "msie", "trident", "like", "u", "en", "en-us",
  "http", "https", "www", "com", "org", "net", "html", "htm", "http.rb",
  "bot", "bots", "robot", "crawler", "spider", "scanner", "agent", "client", "check", "checker", "monitor", "preview", "proxy", "fetcher",
]);

const TOKEN = /[A-Za-z0-9][\w.-]*/y;
const COMPATIBLE = /\bcompatible; ?/i;
const PRODUCT_WITH_VERSION = /([A-Za-z][\w.-]*)\/v?\d/g;
const URL_HOST = /https?:\/\/(?:www\.)?([a-z0-9][a-z0-9.-]*)/i;

/** The name of a bot's User-Agent (one isBotUserAgent said is a bot), trimmed as ua.ts trims it. */
export function botName(userAgent: string | null): string {
  if (!userAgent?.trim()) return UNKNOWN;
  if (userAgent === DISCORD_MEDIA_PROXY) return "Discordbot";
  const token = embeddedName(userAgent) ?? ownToken(userAgent) ?? matchedToken(userAgent) ?? lastProduct(userAgent) ?? urlHost(userAgent);
  if (token === null) return UNKNOWN;
  return RENAMED.get(token.toLowerCase()) ?? token;
}

/** The product a string names itself by: "(compatible; X…", or its first word unless it poses as a browser. */
function ownToken(ua: string): string | null {
  const compatible = COMPATIBLE.exec(ua);
  if (compatible !== null) {
    const name = clean(tokenAt(ua, compatible.index + compatible[0].length));
    if (name !== null) return name;
  }
  if (/^mozilla\//i.test(ua)) return null;
  const first = /^[^A-Za-z0-9]*/.exec(ua)![0].length;
  return clean(tokenAt(ua, first));
}

function embeddedName(ua: string): string | null {
  const found = EMBEDDED_TOKENS.exec(ua);
  return found === null ? null : EMBEDDED_NAMES.get(found[0].toLowerCase())!;
}

/** The whole word around the part isbot matched ("bot" in "SomeBot/1.0" gives "SomeBot"). */
function matchedToken(ua: string): string | null {
  const match = isbotMatch(ua);
  if (match === null) return null;
  let start = ua.indexOf(match);
  while (start > 0 && /[\w.-]/.test(ua[start - 1]!)) start--;
  return clean(tokenAt(ua, start));
}

/** The last "Name/1.2" that is not a browser's or an engine's ("… Safari/537.36 NewsNow/1.0"). */
function lastProduct(ua: string): string | null {
  let last: string | null = null;
  for (const [, product] of ua.matchAll(PRODUCT_WITH_VERSION)) last = clean(product) ?? last;
  return last;
}

/** A bot that gives only its address ("… +https://sitebulb.com") is named by the address's host. */
function urlHost(ua: string): string | null {
  return clean(URL_HOST.exec(ua)?.[1]);
}

function tokenAt(ua: string, index: number): string | undefined {
  TOKEN.lastIndex = index;
  return TOKEN.exec(ua)?.[0];
}

/** A token as a name: without a version glued on ("grub-client-1.0.4"), or null when it names nothing. */
function clean(token: string | undefined): string | null {
  if (token === undefined) return null;
  const name = token
    .replace(/[-_.]v?\d.*$/, "")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, MAX_BOT_NAME_LENGTH)
    .replace(/[._-]+$/, "");
  if (name.length < 2 || !/[A-Za-z]/.test(name) || NOT_A_NAME.has(name.toLowerCase())) return null;
  return name;
}
