// The link-preview agents that get a link's card (src/visits/preview-agents.ts; docs/sharing.md:
// Preview cards): the documented list, and nothing else — no search crawler, AI crawler, monitor or
// script, and no person's browser.

import { describe, expect, test } from "bun:test";
import { isPreviewAgent, PREVIEW_AGENTS } from "../../src/visits/preview-agents.ts";
import { isBotUserAgent } from "../../src/visits/bots.ts";
import { botName } from "../../src/visits/bot-names.ts";
import { BOTS, BROWSERS, LINK_PREVIEW_FETCHERS, REGRESSIONS } from "../fixtures/user-agents.ts";

const CARD_AGENTS = LINK_PREVIEW_FETCHERS.filter((f) => f.card === true);

describe("the preview agents of the list get the card", () => {
  for (const { name, ua } of CARD_AGENTS) test(name, () => expect(isPreviewAgent(ua)).toBe(true));

  test("each is a bot too, and named in the stats as the list names it", () => {
    const listed = new Set(PREVIEW_AGENTS.map((a) => a.name));
    for (const { ua, bot } of CARD_AGENTS) {
      expect(isBotUserAgent(ua)).toBe(true);
      expect(botName(ua)).toBe(bot);
      expect(listed.has(bot)).toBe(true);
    }
  });

  test("every agent of the list has a real string in the fixture, and a source", () => {
    const covered = new Set(CARD_AGENTS.map((f) => f.bot));
    for (const agent of PREVIEW_AGENTS) {
      expect(covered.has(agent.name)).toBe(true);
      expect(agent.source.length).toBeGreaterThan(10);
    }
    for (const fetcher of LINK_PREVIEW_FETCHERS) expect(fetcher.source.length).toBeGreaterThan(10);
  });
});

describe("everything else keeps the redirect", () => {
  for (const { name, ua, card } of LINK_PREVIEW_FETCHERS.filter((f) => f.card !== true)) {
    test(`${name}: ${card}`, () => expect(isPreviewAgent(ua)).toBe(false));
  }
  test("people's browsers", () => {
    for (const { name, ua } of BROWSERS) expect([name, isPreviewAgent(ua)]).toEqual([name, false]);
  });
  test("crawlers, scripts and headless browsers (Discord's media proxy apart)", () => {
    for (const { name, ua, expect: client } of BOTS) {
      if (client.browser === "Discordbot") continue;
      expect([name, isPreviewAgent(ua)]).toEqual([name, false]);
    }
  });
  test("monitors, AI crawlers, and Meta's and Slack's other fetchers", () => {
    const others = [
      "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
      "Mozilla/5.0 (compatible; Pingdom.com_bot_version_1.4_(http://www.pingdom.com/))",
      "Better Uptime Bot Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.124 Safari/537.36",
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
      "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
      "Mozilla/5.0 (compatible; Facebot/1.0)",
      "Slackbot 1.0 (+https://api.slack.com/robots)",
      "http.rb/5.1.1",
      "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
      "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
      "Go-http-client/1.1",
      "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
    ];
    for (const ua of others) expect([ua, isPreviewAgent(ua)]).toEqual([ua, false]);
  });
  test("no User-Agent, a too short or too long one, and strings that broke parsers", () => {
    expect(isPreviewAgent(null)).toBe(false);
    expect(isPreviewAgent("")).toBe(false);
    expect(isPreviewAgent("Vibe")).toBe(false);
    // An agent's string past the 512 characters the recorder keeps is not an agent's.
    expect(isPreviewAgent(`WhatsApp/2 ${"x".repeat(502)}`)).toBe(false);
    expect(isPreviewAgent(`WhatsApp/2 ${"x".repeat(501)}`)).toBe(true);
    for (const { name, ua } of REGRESSIONS) expect([name, isPreviewAgent(ua)]).toEqual([name, false]);
  });
  test("tokens are matched as the agents spell them, and where they put them", () => {
    expect(isPreviewAgent("whatsapp/2")).toBe(false);
    expect(isPreviewAgent("Mozilla/5.0 (compatible; discordbot/2.0)")).toBe(false);
    // a token a string merely mentions later on is not the agent naming itself
    expect(isPreviewAgent("curl/8.4.0 WhatsApp/2")).toBe(false);
    expect(isPreviewAgent("Mozilla/5.0 (X11; Linux x86_64) WhatsApp/2")).toBe(false);
  });
});
