// A link-preview agent's fetch of a card (recorded with PREVIEW_ROUTE) is not a click: parsed as a
// preview, split from the batch's clicks into dimension rows named by the agent, and left out of
// the live view and the webhooks' click events (docs/sharing.md: Previews in the statistics).

import { expect, test } from "bun:test";
import { countedApart, fallbackText, parseRoute, PREVIEW_ROUTE, routeText, type Visit } from "../../src/visits/visit.ts";
import { linkTotals, ROUTE_DIMENSIONS, summarize, withoutApart } from "../../src/visits/rollup.ts";
import { liveBatch } from "../../src/events/live.ts";
import { batchEvents } from "../../src/events/batch-events.ts";
import { createEventWants } from "../../src/events/wants.ts";

const DAY1 = Date.parse("2026-11-21T23:59:59.000Z");
const DAY2 = Date.parse("2026-11-22T00:00:01.000Z");
const visit = (o: Partial<Visit>): Visit => ({
  linkSeq: 1, linkId: "a", ts: DAY1, browser: "Chrome", os: "Windows", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});
const PREVIEW = parseRoute(PREVIEW_ROUTE);
const preview = (browser: string, o: Partial<Visit> = {}) => visit({ browser, os: "Unknown", isBot: true, route: PREVIEW, ...o });

test("parseRoute: PREVIEW_ROUTE is a preview, counted apart; a rule's route and a fallback's are not previews", () => {
  expect(PREVIEW).toMatchObject({ rule: "", variant: "", fallback: null, preview: true });
  expect(countedApart(PREVIEW)).toBe(true);
  const rule = parseRoute(routeText("rule 1", "https://example.com/b"));
  expect(rule).toMatchObject({ rule: "rule 1", variant: "https://example.com/b", fallback: null, preview: false });
  expect(countedApart(rule)).toBe(false);
  expect(parseRoute(fallbackText("expired"))).toMatchObject({ fallback: "expired", preview: false });
  expect(countedApart(parseRoute(fallbackText("expired")))).toBe(true);
  expect(countedApart(null)).toBe(false);
  // The stored visit keeps no rule for a preview (it is never stored as a raw visit anyway).
  expect(PREVIEW.stored).toBe("]");
  expect(ROUTE_DIMENSIONS).toContain("preview");
});

test("withoutApart: previews become rows of dimension preview per link, day and agent; the clicks are what is left", () => {
  const click = visit({});
  const late = visit({ ts: DAY2, browser: "Safari" });
  const { clicks, apart } = withoutApart([
    preview("Slackbot"),
    click,
    preview("Slackbot"),
    preview("WhatsApp"),
    visit({ route: parseRoute(fallbackText("disabled")) }),
    preview("Slackbot", { ts: DAY2 }),
    preview("Discord", { linkSeq: 2, linkId: "b" }),
    late,
  ]);
  expect(clicks).toEqual([click, late]);
  expect(apart).toEqual([
    { linkSeq: 1, dimension: "preview", day: "2026-11-21", name: "Slackbot", total: 2, bots: 2 },
    { linkSeq: 1, dimension: "preview", day: "2026-11-21", name: "WhatsApp", total: 1, bots: 1 },
    { linkSeq: 1, dimension: "fallback", day: "2026-11-21", name: "disabled", total: 1, bots: 0 },
    { linkSeq: 1, dimension: "preview", day: "2026-11-22", name: "Slackbot", total: 1, bots: 1 },
    { linkSeq: 2, dimension: "preview", day: "2026-11-21", name: "Discord", total: 1, bots: 1 },
  ]);
  // What is left adds nothing of the previews to the totals and rollups.
  expect(linkTotals(clicks).get(1)).toEqual({ total: 2, humans: 2, lastTs: DAY2 });
  expect(linkTotals(clicks).has(2)).toBe(false);
  expect(summarize(clicks).dimensions.filter((r) => r.dimension === "browser").map((r) => r.name)).toEqual(["Chrome", "Safari"]);
});

test("a batch of clicks only is returned as it is", () => {
  const batch = [visit({}), visit({ route: parseRoute(routeText("default", "")) })];
  const split = withoutApart(batch);
  expect(split.clicks).toBe(batch);
  expect(split.apart).toEqual([]);
});

test("the live view leaves previews out, of the itemized visits and of every count", () => {
  const batch = [preview("Slackbot"), preview("Slackbot", { linkId: "b", linkSeq: 2 })];
  expect(liveBatch(batch, new Set(["a", "b"]), true)).toBeNull();
  const live = liveBatch([...batch, visit({})], new Set(["a"]), true)!;
  expect(live.visits.map(([id, v]) => [id, v.browser])).toEqual([["a", "Chrome"]]);
  expect(live.counts).toEqual([["a", 1, 1]]);
});

test("link.clicks events are made of the batch's clicks: the recipe hands batchEvents what withoutApart left", () => {
  const wants = createEventWants(["link.clicks"]);
  const { clicks } = withoutApart([preview("Slackbot"), visit({}), preview("WhatsApp")]);
  const [event] = batchEvents(wants, clicks, [], DAY1);
  expect(JSON.parse(event!.data).clicks.map((c: { browser: string }) => c.browser)).toEqual(["Chrome"]);
});
