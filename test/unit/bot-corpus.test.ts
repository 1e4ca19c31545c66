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

describe("crawler-user-agents corpus", () => {
  test("the corpus loaded (a broken import must not pass as 0 misses)", () => {
    expect(counted.length).toBeGreaterThan(1000);
  });

  test(`at least ${MIN_BOT_SHARE * 100}% of the corpus counts as bots`, () => {
    expect(share).toBeGreaterThanOrEqual(MIN_BOT_SHARE);
  });

  for (const [pattern, what] of PEOPLE_IN_APPS) {
    test(`stays human: ${what}`, () => {
      const strings = people.filter((p) => p.pattern === pattern);
      // A renamed or removed entry fails here instead of silently passing with nothing to check.
      expect(strings.length).toBeGreaterThan(0);
      for (const { ua } of strings) expect({ ua, isBot: classify(ua).isBot }).toEqual({ ua, isBot: false });
    });
  }
});
