// Share links (docs/statistics.md: Sharing statistics) against the real service on either engine,
// under --stats-access key: made, listed and revoked only by the link's owner or an admin; the
// token alone opens the statistics (JSON and page); revoked, expired, guessed tokens and a deleted
// link's are answered as an unknown link is; a protected link's destination and title never shown;
// the token never in the log.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { click, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let owner: string;
let other: string;
let admin: string;
const DESTINATION = "https://secret.example.org/launch-plan";
const TITLE = "Launch plan of the year";

beforeAll(async () => {
  server = await startServer({ args: ["--stats-access", "key", "--create-rate-limit", "0"] });
  owner = makeKey(server.dbPath, "owner", "create");
  other = makeKey(server.dbPath, "other", "create");
  admin = makeKey(server.dbPath, "admin");
  await madeLink(server.url, owner, "open-one");
  await madeLink(server.url, owner, "guarded", { url: DESTINATION, title: TITLE, password: "correct horse battery" });
}, 60_000);
afterAll(() => server.dispose());

const share = (id: string, key: string | null, body: unknown = {}) => api(server.url, key, "POST", `/api/links/${id}/shares`, body);
/** What GET /api/stats answers for an unknown link named `id`: what every token that opens nothing gets. */
const unknownLink = async (id: string) => {
  const res = await fetch(`${server.url}/api/stats?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${admin}` } });
  return { status: res.status, body: await res.json() };
};
const sharedJson = async (token: string, query = "") => {
  const res = await fetch(`${server.url}/api/stats/shared/${token}${query}`);
  return { status: res.status, body: await res.json() };
};

test("the owner makes a share; its token alone reads the statistics (JSON and page), whatever --stats-access says", async () => {
  await click(server.url, "open-one", { "user-agent": UA.firefoxLinux }).then((r) => r.arrayBuffer());
  const made = await share("open-one", owner, { label: "the board" });
  expect(made.status).toBe(201);
  const { token, url } = made.body.data;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(url).toBe(`${server.url}/stats/shared/${token}`);
  expect(made.body.data).toMatchObject({ label: "the board", expiresAt: null, lastUsedAt: null });
  // The stats API itself still wants a key.
  expect((await fetch(`${server.url}/api/stats?id=open-one`)).status).toBe(401);
  const read = await eventually(() => sharedJson(token), (r) => r.status === 200 && r.body.data.stats.totalClicks === 1, 10_000);
  expect(read.body.data.link).toMatchObject({ id: "open-one", originalUrl: "https://example.com/open-one" });
  expect((await sharedJson(token, "?bots=exclude&from=2026-01-01&to=2026-01-31")).body.data.stats.totalClicks).toBe(0);
  expect((await sharedJson(token, "?from=nope")).status).toBe(400);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`data-id="open-one"`);
  expect(html).toContain(`content="/api/stats/shared/${token}"`);
  expect((await fetch(`${server.url}/de/stats/shared/${token}`)).status).toBe(200);
  // Listed without its token; last used written once it was used.
  const listed = await eventually(() => api(server.url, owner, "GET", "/api/links/open-one/shares"), (r) => r.body.data.shares[0]?.lastUsedAt !== null, 10_000);
  expect(listed.body.data.shares).toHaveLength(1);
  expect(JSON.stringify(listed.body)).not.toContain(token);
  expect(server.output()).not.toContain(token);
  // Nor in the request metrics: counted under the route, not the path.
  const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } })).text();
  expect(metrics).toContain('route="/api/stats/shared/:token"');
  expect(metrics).toContain('route="/stats/shared/:token"');
  expect(metrics).not.toContain(token);
});

test("a protected link's destination and title are in neither the JSON nor the page", async () => {
  const { token } = (await share("guarded", owner)).body.data;
  const read = await sharedJson(token);
  expect(read.status).toBe(200);
  expect(read.body.data.link).toMatchObject({ id: "guarded", originalUrl: "", title: null, passwordProtected: true });
  const html = await (await fetch(`${server.url}/stats/shared/${token}`)).text();
  for (const text of [JSON.stringify(read.body), html]) {
    expect(text).not.toContain("secret.example.org");
    expect(text).not.toContain(TITLE);
  }
});

test("revoked, expired, guessed and a deleted link's tokens: answered as an unknown link, page and JSON", async () => {
  await madeLink(server.url, owner, "short-lived");
  const revoked = (await share("open-one", owner)).body.data;
  const soon = (await share("open-one", owner, { expiresAt: new Date(Date.now() + 1500).toISOString() })).body.data;
  const deleted = (await share("short-lived", owner)).body.data.token;
  expect((await sharedJson(revoked.token)).status).toBe(200);
  expect((await sharedJson(deleted)).status).toBe(200);
  expect((await api(server.url, owner, "DELETE", `/api/links/open-one/shares/${revoked.id}`)).body.data).toEqual({ id: revoked.id, revoked: true });
  expect((await api(server.url, owner, "DELETE", "/api/links/short-lived")).status).toBe(200);
  const guessed = "A".repeat(43);
  await eventually(() => sharedJson(soon.token), (r) => r.status === 404, 10_000);
  for (const token of [revoked.token, soon.token, deleted, guessed, "x"]) {
    expect(await sharedJson(token)).toEqual(await unknownLink(token));
    const page = await fetch(`${server.url}/stats/shared/${token}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toBe(await (await fetch(`${server.url}/stats/shared/${guessed}`)).text());
  }
  expect((await api(server.url, owner, "GET", "/api/links/open-one/shares")).body.data.shares.map((s: { id: number }) => s.id)).not.toContain(revoked.id);
});

test("who may: another owner's key gets 404 for list, make and revoke; no credential 401; an admin may", async () => {
  const mine = (await share("open-one", owner)).body.data;
  for (const [method, path] of [["GET", "/api/links/open-one/shares"], ["POST", "/api/links/open-one/shares"], ["DELETE", `/api/links/open-one/shares/${mine.id}`]] as const) {
    const asOther = await api(server.url, other, method, path, method === "POST" ? {} : undefined);
    expect([method, asOther.status, asOther.body.code]).toEqual([method, 404, "not_found"]);
    const asNobody = await api(server.url, null, method, path, method === "POST" ? {} : undefined);
    expect([method, asNobody.status, asNobody.body.code]).toEqual([method, 401, "auth_required"]);
  }
  expect((await sharedJson(mine.token)).status).toBe(200);
  expect((await api(server.url, admin, "GET", "/api/links/open-one/shares")).body.data.shares.map((s: { id: number }) => s.id)).toContain(mine.id);
  expect((await api(server.url, admin, "DELETE", `/api/links/open-one/shares/${mine.id}`)).status).toBe(200);
  expect((await sharedJson(mine.token)).status).toBe(404);
});

test("a label over 100 characters, an expiry in the past or not a time: 400 naming the field", async () => {
  const long = await share("open-one", owner, { label: "x".repeat(101) });
  expect([long.status, long.body.code, long.body.field]).toEqual([400, "label_invalid", "label"]);
  const past = await share("open-one", owner, { expiresAt: "2020-01-01T00:00:00Z" });
  expect([past.status, past.body.code, past.body.field]).toEqual([400, "expires_past", "expiresAt"]);
  const junk = await share("open-one", owner, { expiresAt: "soon" });
  expect([junk.status, junk.body.code]).toEqual([400, "expires_invalid"]);
  expect((await share("open-one", owner, [1])).status).toBe(400);
});

test("a token path the router cannot decode is a guess: the unknown link's page, never a 500", async () => {
  const guessed = async (prefix: string) => (await fetch(`${server.url}${prefix}/stats/shared/${"B".repeat(43)}`)).text();
  for (const [prefix, token] of [["", "%ZZ"], ["/en", "%C0%AF"], ["/de", "%ZZ"]] as const) {
    const page = await fetch(`${server.url}${prefix}/stats/shared/${token}`);
    expect([prefix, token, page.status, page.headers.get("content-type")]).toEqual([prefix, token, 404, "text/html; charset=utf-8"]);
    expect(await page.text()).toBe(await guessed(prefix));
  }
});

test("the shared page holds its token: no-store, so no cache keeps it, found or not", async () => {
  const { token } = (await share("open-one", owner)).body.data;
  for (const path of [`/stats/shared/${token}`, `/en/stats/shared/${token}`, `/stats/shared/${"C".repeat(43)}`]) {
    const page = await fetch(`${server.url}${path}`);
    await page.arrayBuffer();
    expect([path, page.headers.get("cache-control")]).toEqual([path, "no-store"]);
  }
});

test("a field a share does not take is refused naming it, never ignored (a misspelt expiry is no share without one)", async () => {
  const before = (await api(server.url, owner, "GET", "/api/links/open-one/shares")).body.data.shares.length;
  const typo = await share("open-one", owner, { expires_at: "2027-01-01T00:00:00Z", lable: "x" });
  expect([typo.status, typo.body.code]).toEqual([400, "bad_request"]);
  expect(typo.body.error).toContain("lable");
  const both = await share("open-one", owner, { expires_at: "2027-01-01T00:00:00Z", expiresAt: "2027-01-01T00:00:00Z" });
  expect([both.status, both.body.code]).toEqual([400, "bad_request"]);
  expect((await api(server.url, owner, "GET", "/api/links/open-one/shares")).body.data.shares).toHaveLength(before);
  // The create's spelling of the expiry is taken, as a link's create takes it.
  const snake = await share("open-one", owner, { expires_at: "2027-01-01T00:00:00Z", label: "snake" });
  expect([snake.status, snake.body.data.expiresAt]).toEqual([201, "2027-01-01T00:00:00.000Z"]);
});
