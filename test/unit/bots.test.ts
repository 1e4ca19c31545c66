import { describe, expect, test } from "bun:test";
import { isbot } from "isbot";
import { isBotUserAgent } from "../../src/visits/bots.ts";
import { BOTS, BROWSERS, LINK_PREVIEW_FETCHERS } from "../fixtures/user-agents.ts";

const DISCORD_MEDIA_PROXY = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.10; rv:38.0) Gecko/20100101 Firefox/38.0";

describe("isBotUserAgent", () => {
  for (const { name, ua } of LINK_PREVIEW_FETCHERS) {
    test(`link preview: ${name}`, () => expect(isBotUserAgent(ua)).toBe(true));
  }

  for (const { name, ua, expect: expected } of BOTS) {
    test(`bot: ${name}`, () => expect(isBotUserAgent(ua)).toBe(expected.isBot));
  }

  for (const { name, ua } of BROWSERS) {
    test(`human: ${name}`, () => expect(isBotUserAgent(ua)).toBe(false));
  }
});

// What isbot alone decides. If an isbot upgrade stops flagging one of these, the first block fails here
// (not silently in the stats) and the fetcher needs its own pattern in bots.ts.
describe("isbot coverage", () => {
  for (const { name, ua } of LINK_PREVIEW_FETCHERS.filter((f) => f.ua !== DISCORD_MEDIA_PROXY)) {
    test(`isbot already flags ${name}`, () => expect(isbot(ua)).toBe(true));
  }

  test("isbot already flags HeadlessChrome", () => {
    expect(isbot(BOTS.find((b) => b.name.startsWith("HeadlessChrome"))!.ua)).toBe(true);
  });

  // isbot 5.2.1 narrowed its "starts with a non-word character" rule (^\W) to ^[<(;] so the Facebook
  // app's bare "[FBAN/FB4A;...]" requests count as human; whitespace-only UAs stopped matching with it.
  test("extra: a missing, empty or whitespace-only UA is a bot (isbot says human)", () => {
    for (const ua of [null, "", " \t "]) {
      expect(isbot(ua)).toBe(false);
      expect(isBotUserAgent(ua)).toBe(true);
    }
  });

  test("extra: Discord's media proxy UA is a bot (isbot says human)", () => {
    expect(isbot(DISCORD_MEDIA_PROXY)).toBe(false);
    expect(isBotUserAgent(DISCORD_MEDIA_PROXY)).toBe(true);
  });

  // Page testers and screenshot services isbot deliberately counts as browsers (see src/visits/bots.ts).
  // (GTmetrix's older string, with "https://gtmetrix.com/" in it, isbot already flags.)
  for (const [name, ua] of [
    ["GTmetrix", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/117.0.0.0 Safari/537.36 GTmetrix"],
    ["Yellow Lab Tools", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_6) AppleWebKit/537.36 (KHTML, like Gecko) YLT Chrome/85.0.4183.121 Safari/537.36"],
    ["Miniature.io", "Mozilla/5.0 (X11; Linux x86_64) Miniature.io/6.0 AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.12.4 Chrome/69.0.3497.128 Safari/537.36"],
  ] as const) {
    test(`extra: page tester or screenshot service is a bot (isbot says browser): ${name}`, () => {
      expect(isbot(ua)).toBe(false);
      expect(isBotUserAgent(ua)).toBe(true);
    });
  }

  test("the Discord match is exact: other old Firefox strings stay human", () => {
    expect(isBotUserAgent("Mozilla/5.0 (Windows NT 6.1; rv:38.0) Gecko/20100101 Firefox/38.0")).toBe(false);
    expect(isBotUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.10; rv:39.0) Gecko/20100101 Firefox/39.0")).toBe(false);
  });
});
