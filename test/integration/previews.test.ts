// Previews counted apart (docs/sharing.md: Previews in the statistics) against a real server on
// both engines. A preview agent's fetch reaches the recorder as a click with route PREVIEW_ROUTE
// (the card page records it so): here the recorder is driven directly with such hand-overs, as the
// click thread sends them, over the server's own database, so that the agent's name comes from its
// real User-Agent. What the server answers then: previewStats per agent, and the link's totals,
// visits (its own and Shlink's), and webhooks made of its real clicks alone.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { PREVIEW_AGENTS as AGENTS, recordPreviews as recordIn } from "../support/previews.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

let server: RunningServer;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ args: ["--webhook-allow-private", "--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "admin");
  receiver = startReceiver();
}, 60_000);
afterAll(async () => {
  receiver?.stop();
  await server?.dispose();
});

const recordPreviews = (id: string, userAgents: string[]) => recordIn(server, id, userAgents);

async function statsOf(id: string, query = "") {
  await drained(server.url);
  return (await stats(server.url, `id=${id}${query}`)).data.stats;
}

test("previews are in previewStats per agent, whatever the bot filter, and in no click figure", async () => {
  expect((await createLink(server.url, { url: "https://example.com/card", custom_url: "pv-stats" })).status).toBe(201);
  await recordPreviews("pv-stats", [UA.slack, AGENTS.whatsapp, UA.slack, AGENTS.discord, UA.slack]);
  for (const query of ["", "&bots=exclude"]) {
    const s = await statsOf("pv-stats", query);
    expect(s.previewStats).toEqual([{ name: "Slackbot", count: 3 }, { name: "Discordbot", count: 1 }, { name: "WhatsApp", count: 1 }]);
    expect(s).toMatchObject({ totalClicks: 0, humanClicks: 0, uniqueVisitors: 0, recentVisits: [], browserStats: [], fallbackStats: [] });
  }
  const link = (await api(server.url, key, "GET", "/api/links/pv-stats")).body.data;
  expect(link).toMatchObject({ totalClicks: 0, lastClickAt: null });
  // A real click is counted as ever, beside them.
  expect((await click(server.url, "pv-stats", { "User-Agent": UA.firefoxLinux })).status).toBe(302);
  const after = await statsOf("pv-stats");
  expect(after).toMatchObject({ totalClicks: 1, humanClicks: 1, uniqueVisitors: 1, browserStats: [{ name: "Firefox", count: 1 }] });
  expect(after.previewStats).toEqual([{ name: "Slackbot", count: 3 }, { name: "Discordbot", count: 1 }, { name: "WhatsApp", count: 1 }]);
}, 60_000);

test("the Shlink surface's visits and the link's own visit list show the click, not the previews", async () => {
  expect((await createLink(server.url, { url: "https://example.com/card", custom_url: "pv-lists" })).status).toBe(201);
  await recordPreviews("pv-lists", [UA.slack, AGENTS.whatsapp]);
  expect((await click(server.url, "pv-lists", { "User-Agent": UA.chromeWindows })).status).toBe(302);
  await drained(server.url);
  const shlink = await fetch(`${server.url}/rest/v3/short-urls/pv-lists/visits`, { headers: { "X-Api-Key": key } });
  const visits = (await shlink.json()).visits;
  expect(visits.pagination.totalItems).toBe(1);
  // Shlink's visit carries a User-Agent made of the stored browser and OS: a Chrome's, not Slack's.
  expect(visits.data.map((v: { userAgent: string; potentialBot: boolean }) => [v.userAgent.includes("Chrome/"), v.potentialBot])).toEqual([[true, false]]);
  const listed = await fetch(`${server.url}/rest/v3/short-urls/pv-lists`, { headers: { "X-Api-Key": key } });
  expect((await listed.json()).visitsSummary).toMatchObject({ total: 1, bots: 0 });
  expect((await statsOf("pv-lists")).recentVisits.map((v: { browser: string }) => v.browser)).toEqual(["Chrome"]);
}, 60_000);

test("webhooks hear the link's clicks only: previews make no link.clicks, milestone or click-limit event", async () => {
  expect((await createLink(server.url, { url: "https://example.com/card", custom_url: "pv-hooks", max_clicks: "3" })).status).toBe(201);
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: receiver.url, events: ["link.clicks", "link.milestone", "link.gone"], linkId: "pv-hooks" });
  expect(made.status).toBe(201);
  receiver.setSecret(made.body.data.secret);
  // Eleven previews: past the first milestone (10) and the link's limit (3), were they clicks.
  await recordPreviews("pv-hooks", Array.from({ length: 11 }, () => UA.slack));
  expect((await click(server.url, "pv-hooks", { "User-Agent": UA.firefoxLinux })).status).toBe(302);
  const heard = await eventually(async () => receiver.unique(), (r) => r.some((e) => e.type === "link.clicks"), 20_000);
  const clicks = heard.filter((e) => e.type === "link.clicks").flatMap((e) => e.body.data.clicks);
  expect(clicks.map((c: { browser: string }) => c.browser)).toEqual(["Firefox"]);
  expect(heard.filter((e) => e.type !== "link.clicks")).toEqual([]);
  expect((await statsOf("pv-hooks")).previewStats).toEqual([{ name: "Slackbot", count: 11 }]);
}, 60_000);
