// `shortener copy` both ways on real databases (docs/postgresql.md: Moving to PostgreSQL and back):
// a SQLite file with links of every kind, clicks, keys, a signed-in user, a webhook and its log,
// copied into PostgreSQL and from there into a new SQLite file. Each copy holds every row of its
// source, prints those counts, and a service started on it shows the same statistics, list,
// overview and webhooks, takes the same keys and the same user's session, and goes on numbering
// links after the source's last (the deleted one's too). Always SQLite and PostgreSQL, whatever
// SHORTENER_TEST_ENGINE says: a copy needs both.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../support/server.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { api, cli, makeKey } from "../support/admin.ts";
import { click, drained } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { openStored } from "../support/stored.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { CLIENT_ID, CLIENT_SECRET, CookieWalker, freePort, startProvider, type TestProvider } from "../support/oidc-provider.ts";
import { copy, expectSameTables, makeLinks, serviceView } from "../support/copy.ts";

setDefaultTimeout(120_000);

let dir: string;
let provider: TestProvider;
let receiver: Receiver;
let pgUrl: string;
/** The PostgreSQL URL as an operator types it: no password (that is in the credential). */
let pgPlain: string;
let password: string;
let credentials: string;
const files = { first: "", back: "" };
const keys = { admin: "", maker: "", alice: "" };
let webhookId = 0;
const alice = new CookieWalker();
let goneSeq = 0;
const views: Record<string, Record<string, unknown>> = {};
const started: RunningServer[] = [];

/** A service on `database` as the first one ran (its provider, webhooks to the receiver's private address). */
async function serve(database: string, env: Record<string, string> = {}, port?: number): Promise<RunningServer> {
  port ??= await freePort();
  const server = await startServer({
    dir,
    database,
    args: ["--port", String(port), "--base-url", `http://127.0.0.1:${port}`, "--oidc-issuer", provider.issuer, "--oidc-client-id", CLIENT_ID, "--webhook-allow-private", "--trust-proxy", "127.0.0.1", "--create-rate-limit", "0"],
    env: { SHORTENER_OIDC_CLIENT_SECRET: CLIENT_SECRET, ...env },
  });
  started.push(server);
  return server;
}

const sessionOf = (base: string) => async () => (await (await alice.go(`${base}/api/session`)).json() as any).data;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-copy-"));
  files.first = join(dir, "first.db");
  files.back = join(dir, "back.db");
  receiver = startReceiver();
  const pg = await sharedPostgres();
  pgUrl = await pg.createDatabase();
  const url = new URL(pgUrl);
  password = decodeURIComponent(url.password);
  url.password = "";
  pgPlain = url.toString();
  credentials = join(dir, "credentials");
  mkdirSync(credentials);
  writeFileSync(join(credentials, "db-password"), password + "\n");

  const port = await freePort();
  provider = await startProvider(`http://127.0.0.1:${port}`);
  const first = await serve(files.first, {}, port);
  keys.admin = makeKey(files.first, "admin");
  keys.maker = makeKey(files.first, "maker", "create");
  const hook = await api(first.url, keys.admin, "POST", "/api/webhooks", { url: receiver.url, events: ["link.created", "link.deleted", "link.clicks"] });
  webhookId = hook.body.data.id;
  receiver.setSecret(hook.body.data.secret);
  // alice signs in through the provider: a user and a session of hers.
  const back = `${first.url}/api/session/oidc/callback`;
  const begun = await alice.go(`${first.url}/api/session/oidc?next=/en/links`);
  await alice.go(await alice.signInAtProvider(begun.headers.get("location")!, "alice", back), { headers: { accept: "application/json" } });
  const made = cli(["key", "create", "alices-key", "--user", "alice", "--db", files.first]);
  if (made.code !== 0) throw new Error(`key for alice: ${made.err}`);
  keys.alice = made.out.trim();

  const stored = await openStored({ dbPath: files.first, engine: "sqlite" });
  await makeLinks(first.url, keys);
  // The deleted link's number: nothing made after the copies may take it again.
  goneSeq = (await stored.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'links'"))!.seq;
  await stored.close();
  await eventually(async () => receiver.unique().map((r) => r.type), (types) => types.includes("link.deleted") && types.includes("link.clicks"));
  await eventually(() => api(first.url, keys.admin, "GET", `/api/webhooks/${webhookId}/deliveries`), (r) => r.body.data.deliveries.every((d: any) => d.state === "delivered"));
  views.first = await serviceView(first.url, keys.admin, webhookId, sessionOf(first.url));
  expect((views.first.session as any).name).toBe("alice");
  await first.stop();
});

afterAll(async () => {
  for (const server of started) await server.stop().catch(() => {});
  receiver?.stop();
  await provider?.stop();
  if (pgUrl) await (await sharedPostgres()).dropDatabase(pgUrl);
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite into PostgreSQL", () => {
  test("every row of every table is copied, the counts printed are those, and nothing says the password", async () => {
    const result = copy(["--db", files.first, "--to", pgPlain], credentials);
    expect({ code: result.code, err: result.err.split("\n").filter((l) => l.startsWith("shortener:")) }).toEqual({ code: 0, err: [] });
    expect(result.out).toContain(`copied ${files.first} (SQLite) into ${pgPlain} (PostgreSQL)`);
    expect(result.out).toMatch(/^clicks of every link: 6 links, 8 clicks, 8 visits, the same in both$/m);
    // Not a TTY here: the progress is plain lines, table by table.
    expect(result.err).toMatch(/^links: \[#+\] 6 of 6, /m);
    expect(result.out + result.err).not.toContain(password);
    const rows = await expectSameTables({ dbPath: files.first, engine: "sqlite" }, { dbPath: pgUrl, engine: "postgres" }, result);
    // The fixture reached every table but the import's cursors (a CSV import keeps none) and the
    // outbox (emptied as the delivery thread fans each event out).
    expect(Object.entries(rows).filter(([, r]) => r.length === 0).map(([t]) => t).sort()).toEqual(["events", "import_cursors"]);
  });

  test("a service on the copy shows the same statistics, list, overview, webhooks and log, and alice's session", async () => {
    const second = await serve(pgPlain, { CREDENTIALS_DIRECTORY: credentials });
    expect(await serviceView(second.url, keys.admin, webhookId, sessionOf(second.url))).toEqual(views.first!);
  });

  test("there, keys and limits hold, the webhook still posts, and new links are numbered after the deleted one", async () => {
    const second = started.at(-1)!;
    expect((await api(second.url, keys.maker, "GET", "/api/links")).body.data.links.map((l: any) => l.id)).toEqual(["mine"]);
    // alice, the first to sign in, is an admin: her key sees every link, hers made by her.
    expect((await api(second.url, keys.alice, "GET", "/api/links")).body.data.links.map((l: any) => `${l.id}:${l.owner}`)).toContain("alices:alice");
    expect((await click(second.url, "limited")).status).toBe(410);
    const clicksHeard = receiver.unique().filter((r) => r.type === "link.clicks").length;
    expect((await click(second.url, "busy")).status).toBe(302);
    expect((await api(second.url, keys.admin, "POST", "/api/create", { url: "https://example.com/after", custom_url: "after-postgres" })).status).toBe(201);
    // Deleted again at once: its number is PostgreSQL's counter, above every link left.
    expect((await api(second.url, keys.admin, "POST", "/api/create", { url: "https://example.com/gone", custom_url: "gone-too" })).status).toBe(201);
    expect((await api(second.url, keys.admin, "DELETE", "/api/links/gone-too")).status).toBe(200);
    await drained(second.url);
    const created = await eventually(async () => receiver.unique().filter((r) => r.type === "link.created" && r.body.data.link?.id === "after-postgres"), (r) => r.length === 1);
    expect(created[0]!.verified).toBe("ok");
    // Everything B wrote to the outbox is sent before it stops, so that the view below is final.
    await eventually(async () => receiver.unique(), (r) => r.filter((m) => m.type === "link.clicks").length === clicksHeard + 1 && r.some((m) => m.type === "link.deleted" && m.body.data.link?.id === "gone-too"));
    const stored = await openStored({ dbPath: pgUrl, engine: "postgres" });
    expect((await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = 'after-postgres'"))!.seq).toBe(goneSeq + 1);
    await stored.close();
    await eventually(() => api(second.url, keys.admin, "GET", `/api/webhooks/${webhookId}/deliveries`), (r) => r.body.data.deliveries.every((d: any) => d.state === "delivered"));
    views.second = await serviceView(second.url, keys.admin, webhookId, sessionOf(second.url));
    await second.stop();
  });
});

describe("and from PostgreSQL back into a new SQLite file", () => {
  test("every row of every table is copied again, and the counts printed are those", async () => {
    const result = copy(["--db", pgPlain, "--to", files.back], credentials);
    expect({ code: result.code, err: result.err.split("\n").filter((l) => l.startsWith("shortener:")) }).toEqual({ code: 0, err: [] });
    expect(result.out).toContain(`copied ${pgPlain} (PostgreSQL) into ${files.back} (SQLite)`);
    expect(result.out + result.err).not.toContain(password);
    await expectSameTables({ dbPath: pgUrl, engine: "postgres" }, { dbPath: files.back, engine: "sqlite" }, result);
  });

  test("a service on it shows what the PostgreSQL one showed, finds links by search, and numbers new links after every deleted one", async () => {
    const third = await serve(files.back);
    expect(await serviceView(third.url, keys.admin, webhookId, sessionOf(third.url))).toEqual(views.second!);
    // The search index was rebuilt from the copied links.
    expect((await api(third.url, keys.admin, "GET", "/api/links?q=limit")).body.data.links.map((l: any) => l.id)).toEqual(["limited"]);
    expect((await api(third.url, keys.admin, "POST", "/api/create", { url: "https://example.com/after", custom_url: "after-sqlite" })).status).toBe(201);
    const stored = await openStored({ dbPath: files.back, engine: "sqlite" });
    expect((await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = 'after-sqlite'"))!.seq).toBe(goneSeq + 3);
    await stored.close();
  });
});
