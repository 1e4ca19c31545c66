// A bot's name in the browser breakdown (src/visits/bot-names.ts; docs/clicks.md: Bots and their
// names): real User-Agent strings with the name each must be counted under, how a name is cleaned,
// and that people keep their browser's name.

import { describe, expect, test } from "bun:test";
import { botName, MAX_BOT_NAME_LENGTH } from "../../src/visits/bot-names.ts";
import { classifyUserAgent, createClientClassifier, MAX_UA_LENGTH } from "../../src/visits/ua.ts";
import { BOTS, BROWSERS, LINK_PREVIEW_FETCHERS, REGRESSIONS } from "../fixtures/user-agents.ts";

// More real strings: crawlers, AI fetchers and the HTTP libraries of scripts, as their makers document them.
const MORE_BOTS: readonly (readonly [ua: string, name: string])[] = [
  ["Go-http-client/1.1", "Go-http-client"],
  ["Go-http-client/2.0", "Go-http-client"],
  ["Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"],
  ["Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"],
  ["DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"],
  ["Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot"],
  ["Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "SemrushBot"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "PerplexityBot"],
  ["Googlebot-Image/1.0", "Googlebot-Image"],
  ["Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.216 Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)", "Google-InspectionTool"],
  ["meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalagent"],
  ["facebookcatalog/1.0", "Facebook"],
  ["Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot"],
  ["Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Yahoo"],
  ["Screaming Frog SEO Spider/19.0", "Screaming Frog"],
  ["node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "node-fetch"],
  ["axios/1.6.2", "axios"],
  ["okhttp/4.12.0", "okhttp"],
  ["Java/17.0.2", "Java"],
  ["PostmanRuntime/7.36.0", "PostmanRuntime"],
  ["libwww-perl/6.72", "libwww-perl"],
  ["Scrapy/2.11.0 (+https://scrapy.org)", "Scrapy"],
  ["python-httpx/0.25.2", "python-httpx"],
  ["Python-urllib/3.11", "Python-urllib"],
  ["aiohttp/3.9.1", "aiohttp"],
  ["WhatsApp/2.2407.3 W", "WhatsApp"],
  // a browser's string with the bot's token after it: the last product that is no browser's
  ["Mozilla/4.0 (compatible; MSIE 7.0; Windows NT) NewsNow/1.0", "NewsNow"],
  // only an address: its host
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6439.0 Safari/537.36 +https://sitebulb.com", "sitebulb.com"],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36", "HeadlessChrome"],
];

describe("a bot's browser is its name", () => {
  for (const { name, ua, expect: expected } of BOTS) {
    test(name, () => expect(classifyUserAgent(ua).browser).toBe(expected.browser));
  }
  for (const { name, ua, bot } of LINK_PREVIEW_FETCHERS) {
    test(`link preview: ${name} is "${bot}"`, () => expect(classifyUserAgent(ua)).toMatchObject({ browser: bot, isBot: true }));
  }
  for (const [ua, name] of MORE_BOTS) {
    test(`"${name}" from ${ua.slice(0, 60)}`, () => expect(classifyUserAgent(ua)).toMatchObject({ browser: name, isBot: true }));
  }

  test("the bot's system and device stay as parsed (Googlebot's smartphone crawler is Android, mobile)", () => {
    const smartphone = BOTS.find((b) => b.name === "Googlebot smartphone")!;
    expect(classifyUserAgent(smartphone.ua)).toEqual({ browser: "Googlebot", os: "Android", device: "mobile", isBot: true });
  });

  test("the cached classifier imports use names bots the same way", () => {
    const classify = createClientClassifier();
    for (const { ua, bot } of LINK_PREVIEW_FETCHERS) expect(classify(ua).browser).toBe(bot);
  });

  test("redirect rules read the browser a bot poses as (nameBots: false), as before names", () => {
    const forRules = createClientClassifier(100, { nameBots: false });
    const phone = BOTS.find((b) => b.name === "Googlebot smartphone")!.ua;
    const applebot = BOTS.find((b) => b.name === "Applebot")!.ua;
    expect(forRules(phone)).toEqual({ browser: "Chrome", os: "Android", device: "mobile", isBot: true });
    expect(forRules(applebot)).toEqual({ browser: "Safari", os: "macOS", device: "desktop", isBot: true });
    expect(forRules("curl/8.4.0").browser).toBe("Unknown");
  });
});

describe("how a name is written", () => {
  test("a bot with no User-Agent, or a blank one, has no name", () => {
    for (const ua of [null, "", " \t "]) expect(botName(ua)).toBe("Unknown");
  });

  test("the version goes, with whatever glued it on", () => {
    expect(botName("Mozilla/5.0 (compatible; grub-client-1.5.3; Crawl your own stuff with http://grub.org)")).toBe("grub-client");
    expect(botName("DirBuster-1.0-RC1 (http://www.owasp.org/index.php/Category:OWASP_DirBuster_Project)")).toBe("DirBuster");
  });

  test(`at most ${MAX_BOT_NAME_LENGTH} characters`, () => {
    const name = botName(`${"Averylongcrawlername".repeat(5)}/1.0`);
    expect(name).toBe("Averylongcrawlername".repeat(5).slice(0, MAX_BOT_NAME_LENGTH));
  });

  test("only letters, digits and . _ - from the string: markup and quotes never become a name", () => {
    for (const ua of [
      `<script>alert(1)</script>bot/1.0`,
      `"quoted"bot/1.0`,
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0 Bot<img src=x>",
      "évilbot/1.0 🤖",
    ]) {
      const name = classifyUserAgent(ua).browser;
      expect({ ua, name, ok: /^[A-Za-z0-9._-]{2,32}$/.test(name) || name === "Unknown" }).toEqual({ ua, name, ok: true });
    }
  });

  test("a browser's own words are no bot's name (Edg, Safari, Chrome …)", () => {
    expect(botName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0 Bot<x>")).toBe("Unknown");
  });

  test("regressions: the strings that once broke parsers get a name or Unknown, never an error", () => {
    for (const { ua, expect: expected } of REGRESSIONS) {
      const client = classifyUserAgent(ua);
      expect(client.browser).toBe(expected.browser);
      if (client.isBot) expect(client.browser.length).toBeLessThanOrEqual(MAX_BOT_NAME_LENGTH);
    }
  });

  test(`a name comes from the first ${MAX_UA_LENGTH} characters, as every other part of a click`, () => {
    const pad = " ".repeat(MAX_UA_LENGTH - "curl/8".length);
    expect(classifyUserAgent(`curl/8${pad}Googlebot/2.1`).browser).toBe("curl");
  });
});

describe("people keep their browser's name", () => {
  for (const { name, ua, expect: expected } of BROWSERS) {
    test(name, () => expect(classifyUserAgent(ua).browser).toBe(expected.browser));
  }
});
