// Titles fetched from the page of a link created without one (#38; docs/link-titles.md: Link
// titles), against the real service on a real port and pages served on 127.0.0.1 by the test
// (test/support/title-pages.ts). Runs on SQLite and on PostgreSQL (SHORTENER_TEST_ENGINE=postgres):
// the fetched title is stored, and shown by GET /api/links/:id, on either engine.
// Every page is on loopback: with --fetch-titles on (the outbound policy as it stands) the service
// must refuse it before connecting, and the page server must see no request; --fetch-titles any is
// the operator's leave to reach it. Nothing is sent anywhere else.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startTitlePages, type TitlePages } from "../support/title-pages.ts";

setDefaultTimeout(60_000);

const OUTCOMES = ["stored", "kept", "untitled", "refused", "failed", "dropped"] as const;
type Outcomes = Record<(typeof OUTCOMES)[number], number>;

let pages: TitlePages;
const servers: RunningServer[] = [];
beforeAll(() => {
  pages = startTitlePages();
});
afterAll(async () => {
  for (const s of servers) await s.dispose();
  pages.stop();
});

async function started(args: string[]): Promise<{ server: RunningServer; key: string }> {
  const server = await startServer({ args: ["--allow-loopback-destinations", ...args] });
  servers.push(server);
  return { server, key: makeKey(server.dbPath, "titles") };
}

/** The title fetches' outcomes in /metrics (readable from loopback by default); null while it has none. */
async function outcomes(server: RunningServer): Promise<Outcomes | null> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  if (!text.includes("shortener_title_fetches_total")) return null;
  const count = (o: string) => Number(new RegExp(`^shortener_title_fetches_total\\{outcome="${o}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
  return Object.fromEntries(OUTCOMES.map((o) => [o, count(o)])) as Outcomes;
}

const total = (o: Outcomes | null) => (o === null ? 0 : OUTCOMES.reduce((n, k) => n + o[k], 0));

/** Creates a link to the page (no title given), waits until its fetch has ended: how, and the link's title then. */
async function fetchedFor(s: { server: RunningServer; key: string }, path: string): Promise<{ outcome: string[]; title: unknown }> {
  const before = await outcomes(s.server);
  const created = await api(s.server.url, s.key, "POST", "/api/create", { url: pages.url(path) });
  expect(created.status).toBe(201);
  const after = await eventually(() => outcomes(s.server), (o) => total(o) > total(before), 30_000, 50);
  const outcome = OUTCOMES.filter((o) => (after?.[o] ?? 0) > (before?.[o] ?? 0));
  return { outcome, title: await titleOf(s, idOf(created)) };
}

/** A created link's id: its short URL's last segment (the create answers shortUrl and statsUrl). */
const idOf = (created: { body: any }) => String(created.body.data.shortUrl).split("/").pop()!;
const titleOf = async (s: { server: RunningServer; key: string }, id: string) => (await api(s.server.url, s.key, "GET", `/api/links/${id}`)).body.data.title;

const requestsTo = (path: string) => pages.requests.filter((r) => r.path === path).length;

describe("--fetch-titles on: the outbound policy as it stands refuses loopback", () => {
  test("a link to a page on 127.0.0.1 gets no fetch: refused before connecting, the page server sees nothing, the log names the host and no query", async () => {
    const s = await started(["--fetch-titles", "on"]);
    const result = await fetchedFor(s, "/utf8?token=secret-in-query");
    expect(result).toEqual({ outcome: ["refused"], title: null });
    expect(requestsTo("/utf8?token=secret-in-query")).toBe(0);
    const line = s.server.output().split("\n").find((l) => l.includes("link title not fetched")) ?? "";
    expect(line).toContain("127.0.0.1 is a loopback address (RFC 1122); reached only with --fetch-titles any");
    expect(line).not.toContain("secret-in-query");
    expect(s.server.output()).toContain("link titles fetched from their pages (public addresses only)");
  });
});

describe("without --fetch-titles (off by default)", () => {
  test("nothing is fetched, and /metrics has no title fetches", async () => {
    const s = await started([]);
    const created = await api(s.server.url, s.key, "POST", "/api/create", { url: pages.url("/utf8?off") });
    expect(created.status).toBe(201);
    expect(await outcomes(s.server)).toBeNull();
    expect(await titleOf(s, idOf(created))).toBeNull();
    expect(s.server.output()).not.toContain("link titles fetched");
  });
});

describe("--fetch-titles any: loopback allowed", () => {
  let s: { server: RunningServer; key: string };
  beforeAll(async () => {
    s = await started(["--fetch-titles", "any"]);
  });

  test("charsets: UTF-8, ISO-8859-1 named by the header, windows-1252 named by <meta>; entities decoded; whitespace collapsed", async () => {
    expect(await fetchedFor(s, "/utf8")).toEqual({ outcome: ["stored"], title: "Grüße aus 東京" });
    expect(await fetchedFor(s, "/latin1")).toEqual({ outcome: ["stored"], title: "Café crème" });
    expect(await fetchedFor(s, "/cp1252")).toEqual({ outcome: ["stored"], title: "“Quoted” for €5" });
    expect(await fetchedFor(s, "/entities")).toEqual({ outcome: ["stored"], title: "Café & Bar — Menü" });
    expect(await fetchedFor(s, "/spaced")).toEqual({ outcome: ["stored"], title: "Several lines here" });
  });

  test("a page without a title, and an answer that is not HTML: no title", async () => {
    expect(await fetchedFor(s, "/untitled")).toEqual({ outcome: ["untitled"], title: null });
    expect(await fetchedFor(s, "/json")).toEqual({ outcome: ["untitled"], title: null });
  });

  test("pages that never end: read up to the title's end, or up to the size bound (256 KiB), never to the time bound", async () => {
    expect(await fetchedFor(s, "/titled-then-stalls")).toEqual({ outcome: ["stored"], title: "Read only this far" });
    expect(await fetchedFor(s, "/endless")).toEqual({ outcome: ["untitled"], title: null });
  });

  test("redirects are followed (three hops, relative Locations); a loop ends after a few as failed", async () => {
    expect(await fetchedFor(s, "/hop/3")).toEqual({ outcome: ["stored"], title: "After the hops" });
    expect(["/hop/3", "/hop/2", "/hop/1", "/hop/0"].map(requestsTo)).toEqual([1, 1, 1, 1]);
    expect(await fetchedFor(s, "/loop")).toEqual({ outcome: ["failed"], title: null });
    expect(requestsTo("/loop")).toBe(6);
  });

  test("the create answers without waiting: a page that never answers is still held when the answer has come; the fetch gives up at its time bound", async () => {
    const created = await api(s.server.url, s.key, "POST", "/api/create", { url: pages.url("/hold") });
    expect(created.status).toBe(201);
    const held = await eventually(async () => pages.requests.find((r) => r.path === "/hold"), (r) => r !== undefined, 10_000, 20);
    // Had the create waited for the fetch, the fetch would have given up (aborting this request) before the answer.
    expect(held?.request.signal.aborted).toBe(false);
    await eventually(async () => held?.request.signal.aborted, (aborted) => aborted === true, 30_000, 100);
    expect(held?.request.signal.aborted).toBe(true);
    const after = await eventually(() => outcomes(s.server), (o) => (o?.failed ?? 0) > 1, 30_000, 50);
    expect(after?.failed).toBe(2); // the loop's, and this one
    expect(await titleOf(s, idOf(created))).toBeNull();
  });

  test("a create through the YOURLS and Kutt APIs without a title gets one too (docs/yourls-api.md, docs/kutt-api.md)", async () => {
    const before = total(await outcomes(s.server));
    const yourls = await fetch(`${s.server.url}/yourls-api.php?signature=${s.key}&action=shorturl&format=json&url=${encodeURIComponent(pages.url("/utf8?yourls"))}`);
    expect(yourls.status).toBe(200);
    const kutt = await api(s.server.url, null, "POST", "/api/v2/links", { target: pages.url("/latin1?kutt") }, { "x-api-key": s.key });
    expect(kutt.status).toBe(201);
    await eventually(() => outcomes(s.server), (o) => total(o) >= before + 2, 30_000, 50);
    const yourlsId = String(((await yourls.json()) as { shorturl: string }).shorturl).split("/").pop()!;
    expect(await titleOf(s, yourlsId)).toBe("Grüße aus 東京");
    expect(await titleOf(s, String(kutt.body.link).split("/").pop()!)).toBe("Café crème");
  });

  test("a title given at create is never fetched; one set while the fetch was under way is never overwritten", async () => {
    const before = total(await outcomes(s.server));
    const given = await api(s.server.url, s.key, "POST", "/api/create", { url: pages.url("/utf8?given"), title: "Given" });
    expect(given.status).toBe(201);
    const gated = await api(s.server.url, s.key, "POST", "/api/create", { url: pages.url("/gate") });
    expect(gated.status).toBe(201);
    await eventually(async () => requestsTo("/gate"), (n) => n === 1, 10_000, 20);
    const patched = await api(s.server.url, s.key, "PATCH", `/api/links/${idOf(gated)}`, { title: "Mine" });
    expect(patched.status).toBe(200);
    pages.openGate();
    const after = await eventually(() => outcomes(s.server), (o) => total(o) > before, 30_000, 50);
    expect(total(after) - before).toBe(1);
    expect(after?.kept).toBe(1);
    expect(await titleOf(s, idOf(gated))).toBe("Mine");
    expect(await titleOf(s, idOf(given))).toBe("Given");
    expect(requestsTo("/utf8?given")).toBe(0);
  });
});
