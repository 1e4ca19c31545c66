// The whole crawler-user-agents corpus (devDependency, pinned) through the classifier the recorder uses.
// It measures how current our bot detection is: at least 99.5% of its strings must count as bots.
// The misses are printed on every run so a reader sees which strings get through, and how many.

import { describe, expect, test } from "bun:test";
import crawlers from "crawler-user-agents";
import { createClientClassifier } from "../../src/visits/ua.ts";

const MIN_BOT_SHARE = 0.995;

// Corpus entries (by their `pattern` field) whose strings are a person in an app's own browser. The
// corpus lists them because some bot once sent such a string, but that string is what the app sends for
// every real visitor: flagging it would drop real clicks. They are left out of the share and must stay human.
const PEOPLE_IN_APPS: ReadonlyMap<string, string> = new Map([
  // Instagram's in-app browser on an OPPO CPH2557 (the pattern is that phone's Android build id).
  // The entry says "80legs web scraping service": a scraper copied one phone's string, which every
  // owner of that phone on that firmware also sends when opening a link in Instagram.
  ["AP3A\\.240617\\.008", "Instagram in-app browser (Android)"],
  // Meta's in-app browser (MetaIAB) in the Facebook app; the entry calls it a link-preview fetcher, but the
  // Facebook app sends this suffix on its WebView when a person opens a link (shalanah/inapp-spy#57).
  ["MetaIAB Facebook", "Facebook in-app browser (MetaIAB)"],
  // Fluid wraps one website in its own macOS app window: a site-specific browser a person uses.
  ["Fluid", "Fluid site-specific browser (macOS)"],
]);

type Miss = { pattern: string; ua: string };

const classify = createClientClassifier();
const counted: Miss[] = [];
const people: Miss[] = [];
for (const { pattern, instances } of crawlers) {
  for (const ua of instances) (PEOPLE_IN_APPS.has(pattern) ? people : counted).push({ pattern, ua });
}
const misses = counted.filter(({ ua }) => !classify(ua).isBot);
const share = 1 - misses.length / counted.length;

console.log(
  `crawler-user-agents: ${counted.length - misses.length} of ${counted.length} strings flagged as bots ` +
    `(${(share * 100).toFixed(2)}%), ${misses.length} missed; ${people.length} in-app strings kept human`,
);
for (const { pattern, ua } of misses) console.log(`  missed [${pattern}] ${ua}`);

// Every string counted as a bot is counted under a name (src/visits/bot-names.ts): a cleaned token,
// or "Unknown" where the string holds none. At most MAX_UNNAMED_SHARE of them may stay unnamed.
const MAX_UNNAMED_SHARE = 0.01;
const named = counted.filter(({ ua }) => classify(ua).isBot).map(({ pattern, ua }) => ({ pattern, ua, name: classify(ua).browser }));
const unnamed = named.filter((b) => b.name === "Unknown");
console.log(`  ${named.length - unnamed.length} of ${named.length} bots named (${new Set(named.map((b) => b.name)).size} names), ${unnamed.length} unnamed`);
for (const { pattern, ua } of unnamed) console.log(`  unnamed [${pattern}] ${ua}`);

describe("crawler-user-agents corpus", () => {
  test("the corpus loaded (a broken import must not pass as 0 misses)", () => {
    expect(counted.length).toBeGreaterThan(1000);
  });

  test(`at least ${MIN_BOT_SHARE * 100}% of the corpus counts as bots`, () => {
    expect(share).toBeGreaterThanOrEqual(MIN_BOT_SHARE);
  });

  test(`at most ${MAX_UNNAMED_SHARE * 100}% of the bots stay unnamed, and every name is a cleaned token`, () => {
    expect(unnamed.length / named.length).toBeLessThanOrEqual(MAX_UNNAMED_SHARE);
    const malformed = named.filter((b) => !/^[A-Za-z0-9][\w. -]{1,31}$/.test(b.name));
    expect(malformed).toEqual([]);
  });

  // The names people know: the strings of a corpus entry that carry its token are counted under one
  // name (Bing's entry also holds its ads crawler, adidxbot, named as such).
  for (const [pattern, token, name] of [
    ["Googlebot\\/", "googlebot/", "Googlebot"],
    ["bingbot", "bingbot/", "Bingbot"],
    ["facebookexternalhit", "facebookexternalhit", "Facebook"],
    ["Slackbot", "slackbot", "Slackbot"],
    ["Discordbot", "discordbot", "Discordbot"],
    ["Twitterbot", "twitterbot", "Twitterbot"],
    ["TelegramBot", "telegrambot", "TelegramBot"],
    ["LinkedInBot", "linkedinbot", "LinkedInBot"],
    ["Applebot", "applebot", "Applebot"],
    ["WhatsApp", "whatsapp", "WhatsApp"],
    ["python-requests", "python-requests", "python-requests"],
    ["Go-http-client", "go-http-client", "Go-http-client"],
  ] as const) {
    test(`the corpus's ${name} strings are all named ${name}`, () => {
      const strings = named.filter((b) => b.pattern === pattern && b.ua.toLowerCase().includes(token));
      expect(strings.length).toBeGreaterThan(0);
      for (const { ua, name: got } of strings) expect({ ua, name: got }).toEqual({ ua, name });
    });
  }

  for (const [pattern, what] of PEOPLE_IN_APPS) {
    test(`stays human: ${what}`, () => {
      const strings = people.filter((p) => p.pattern === pattern);
      // A renamed or removed entry fails here instead of silently passing with nothing to check.
      expect(strings.length).toBeGreaterThan(0);
      for (const { ua } of strings) expect({ ua, isBot: classify(ua).isBot }).toEqual({ ua, isBot: false });
    });
  }
});
