// A card without a title of its own is titled by the link's title (src/links/card.ts cardOf), and
// --fetch-titles fills that title after the create (docs/link-titles.md: Link titles): the card an
// agent is shown then has it, though the link was cached before (docs/sharing.md: Preview cards).
// Both engines (SHORTENER_TEST_ENGINE); on PostgreSQL a second instance's cached card too. The page
// is served on 127.0.0.1 by the test, held until the agent has seen the untitled card.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { LINK_PREVIEW_FETCHERS } from "../fixtures/user-agents.ts";

setDefaultTimeout(60_000);

const WHATSAPP = LINK_PREVIEW_FETCHERS.find((f) => f.name === "WhatsApp")!.ua;
const ogTitle = (html: string) => /<meta property="og:title" content="([^"]*)">/.exec(html)?.[1] ?? null;

let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
let asked = 0;
const page = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch() {
    asked++;
    await released;
    return new Response("<html><head><title>Fetched page title</title></head></html>", { headers: { "Content-Type": "text/html" } });
  },
});
let server: RunningServer;
let other: RunningServer | null = null;
let key: string;

beforeAll(async () => {
  server = await startServer({ args: ["--fetch-titles", "any", "--allow-loopback-destinations"] });
  key = makeKey(server.dbPath, "cards");
  // PostgreSQL: a second instance on the same database, which fetches nothing itself.
  if (onPostgres) other = await startServer({ database: server.dbPath, args: ["--allow-loopback-destinations"] });
});
afterAll(async () => {
  release();
  await Promise.all([server?.dispose(), other?.dispose()]);
  page.stop(true);
});

const card = async (s: RunningServer) => ogTitle(await (await fetch(`${s.url}/untitled-card`, { headers: { "user-agent": WHATSAPP } })).text());

test("a fetched title reaches the card that had none, on every instance", async () => {
  const created = await api(server.url, key, "POST", "/api/create", { url: `http://127.0.0.1:${page.port}/p`, custom_url: "untitled-card", cardDescription: "Only a description" });
  expect(created.status).toBe(201);
  await eventually(async () => asked, (n) => n > 0, 30_000, 50);
  // Cached while the page is held: titled by the short URL.
  for (const s of other === null ? [server] : [server, other]) expect(await card(s)).toBe(`${new URL(s.url).host}/untitled-card`);
  release();
  const titleOf = async () => (await api(server.url, key, "GET", "/api/links/untitled-card")).body.data.title;
  expect(await eventually(titleOf, (t) => t !== null, 30_000, 50)).toBe("Fetched page title");
  expect(await card(server)).toBe("Fetched page title");
  // The write's announcement (src/db/postgres/link-changes.ts), as a PATCH's; within the bound
  // test/integration/instances.test.ts gives a change (a missed one waits for a periodic reload).
  if (other !== null) expect(await eventually(() => card(other!), (t) => t === "Fetched page title", 5_000, 50)).toBe("Fetched page title");
});
