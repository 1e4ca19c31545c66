// Who may read a link's statistics, see where it leads, and watch it live, through the app in this
// process (test/support/in-process.ts): the API (GET /api/stats), the live view (GET /api/stats/live)
// and the stats page (GET /en/stats/<id>), under --stats-access public and key. The rule is the
// policy's (src/auth/policy.ts: statsAskWho, statsSight), asked through src/ops/stats/read.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { inProcessApp, type Answer, type InProcess } from "../support/in-process.ts";

type Who = "nobody" | "alice" | "bob" | "admin" | "bad key";
/** `shown`: the destination the answer gives ("" when hidden); `code`: a refusal's. */
type Row = { who: Who; status: number; code?: string; shown?: string };

// Alice's links: one open, one with a password and a split (its destinations are hers and admins').
const OPEN = "alice-open";
const LOCKED = "alice-locked";
const LOCKED_URL = "https://example.com/secret";

type Instance = { app: InProcess; keys: Record<Who, string | null> };

async function instance(args: string[]): Promise<Instance> {
  const app = await inProcessApp(args);
  const now = Date.now();
  const keys = { nobody: null, "bad key": generateKey() } as Record<Who, string | null>;
  for (const [who, scope] of [["alice", "create"], ["bob", "create"], ["admin", "admin"]] as const) keys[who] = (await app.storage.keys.create(who, scope, now)).key;
  const made = [
    await app.call(keys.alice, "POST", "/api/create", { url: "https://example.com/open", custom_url: OPEN }),
    await app.call(keys.alice, "POST", "/api/create", { url: LOCKED_URL, custom_url: LOCKED, password: "hunter22" }),
  ];
  expect(made.map((a) => a.status)).toEqual([201, 201]);
  expect((await app.call(keys.alice, "PATCH", `/api/links/${LOCKED}`, { variants: [{ url: "https://example.com/a", weight: 1 }, { url: "https://example.com/b", weight: 1 }] })).status).toBe(200);
  return { app, keys };
}

async function stats(at: Instance, who: Who, id: string): Promise<Answer> {
  const answer = await at.app.call(at.keys[who], "GET", `/api/stats?id=${id}`);
  expect(answer.contract).toBeNull();
  return answer;
}

function expectRow(answer: Answer, row: Row): void {
  if (row.code !== undefined) {
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: row.status, body: { success: false, code: row.code } });
    return;
  }
  expect({ status: answer.status, originalUrl: answer.body.data.link.originalUrl }).toEqual({ status: row.status, originalUrl: row.shown });
}

/** The live view's answer: its status, and the stream closed at once (or the refusal's code). */
async function live(at: Instance, who: Who, id: string): Promise<{ status: number; code: string | null }> {
  const headers: Record<string, string> = { host: "localhost:8080" };
  if (at.keys[who] !== null) headers.authorization = `Bearer ${at.keys[who]}`;
  const response = await at.app.handle(new Request(`http://localhost:8080/api/stats/live?id=${id}`, { headers }));
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, code: null };
  }
  return { status: response.status, code: ((await response.json()) as { code: string }).code };
}

/** The stats page's status. */
async function page(at: Instance, who: Who, id: string): Promise<number> {
  const headers: Record<string, string> = { host: "localhost:8080" };
  if (at.keys[who] !== null) headers.authorization = `Bearer ${at.keys[who]}`;
  const response = await at.app.handle(new Request(`http://localhost:8080/en/stats/${id}`, { headers }));
  await response.text();
  return response.status;
}

describe("--stats-access public", () => {
  let at: Instance;
  beforeAll(async () => {
    at = await instance([]);
  }, 30_000);
  afterAll(async () => {
    await at.app.close();
  }, 30_000);

  test.each<Row>([
    { who: "nobody", status: 200, shown: "https://example.com/open" },
    // Nobody is asked about a link without a password: a key, good or not, is not read.
    { who: "bad key", status: 200, shown: "https://example.com/open" },
    { who: "bob", status: 200, shown: "https://example.com/open" },
    { who: "alice", status: 200, shown: "https://example.com/open" },
  ])("an open link, $who: $status", async (row) => {
    expectRow(await stats(at, row.who, OPEN), row);
  });

  test.each<Row>([
    // Its counts are public, where it leads is its owner's and admins'.
    { who: "nobody", status: 200, shown: "" },
    { who: "bob", status: 200, shown: "" },
    { who: "alice", status: 200, shown: LOCKED_URL },
    { who: "admin", status: 200, shown: LOCKED_URL },
    // Asked who they are (the link has a password), a key that is no key is refused.
    { who: "bad key", status: 401, code: "auth_invalid" },
  ])("a link with a password, $who: $status", async (row) => {
    const answer = await stats(at, row.who, LOCKED);
    expectRow(answer, row);
    if (answer.status === 200) expect(answer.body.data.link.passwordProtected).toBe(true);
  });

  test("a link with a password: nothing of where it leads (URL, variants) in the answer to anyone but its owner and admins", async () => {
    for (const who of ["nobody", "bob"] as const) expect(JSON.stringify((await stats(at, who, LOCKED)).body)).not.toContain("example.com");
    expect(JSON.stringify((await stats(at, "alice", LOCKED)).body)).toContain(LOCKED_URL);
  });

  test("an unknown link: 404 not_found for anyone", async () => {
    expectRow(await stats(at, "nobody", "no-such-link"), { who: "nobody", status: 404, code: "not_found" });
    expectRow(await stats(at, "admin", "no-such-link"), { who: "admin", status: 404, code: "not_found" });
  });

  test.each<[Who, string, { status: number; code: string | null }]>([
    ["nobody", OPEN, { status: 200, code: null }],
    ["nobody", LOCKED, { status: 200, code: null }],
    ["alice", LOCKED, { status: 200, code: null }],
    ["nobody", "no-such-link", { status: 404, code: "not_found" }],
  ])("the live view: %s watching %s", async (who, id, expected) => {
    expect(await live(at, who, id)).toEqual(expected);
  });

  test.each<[Who, string, number]>([
    ["nobody", OPEN, 200],
    ["nobody", LOCKED, 200],
    ["nobody", "no-such-link", 404],
  ])("the stats page: %s reading %s", async (who, id, status) => {
    expect(await page(at, who, id)).toBe(status);
  });
});

describe("--stats-access key", () => {
  let at: Instance;
  beforeAll(async () => {
    at = await instance(["--stats-access", "key"]);
  }, 30_000);
  afterAll(async () => {
    await at.app.close();
  }, 30_000);

  test.each<Row>([
    { who: "nobody", status: 401, code: "auth_required" },
    { who: "bad key", status: 401, code: "auth_invalid" },
    // Another's link and an unknown one look the same: never a 403 that confirms it exists.
    { who: "bob", status: 404, code: "not_found" },
    { who: "alice", status: 200, shown: "https://example.com/open" },
    { who: "admin", status: 200, shown: "https://example.com/open" },
  ])("an open link, $who: $status", async (row) => {
    expectRow(await stats(at, row.who, OPEN), row);
  });

  test.each<Row>([
    { who: "nobody", status: 401, code: "auth_required" },
    { who: "bob", status: 404, code: "not_found" },
    { who: "alice", status: 200, shown: LOCKED_URL },
    { who: "admin", status: 200, shown: LOCKED_URL },
  ])("a link with a password, $who: $status", async (row) => {
    expectRow(await stats(at, row.who, LOCKED), row);
  });

  test("an unknown link: 401 for nobody (it is not said whether it exists), 404 for a key", async () => {
    expectRow(await stats(at, "nobody", "no-such-link"), { who: "nobody", status: 401, code: "auth_required" });
    expectRow(await stats(at, "alice", "no-such-link"), { who: "alice", status: 404, code: "not_found" });
  });

  test.each<[Who, string, { status: number; code: string | null }]>([
    ["nobody", OPEN, { status: 401, code: "auth_required" }],
    ["bob", OPEN, { status: 404, code: "not_found" }],
    ["alice", OPEN, { status: 200, code: null }],
    ["admin", LOCKED, { status: 200, code: null }],
  ])("the live view: %s watching %s", async (who, id, expected) => {
    expect(await live(at, who, id)).toEqual(expected);
  });

  test.each<[Who, string, number]>([
    ["nobody", OPEN, 401],
    ["bob", OPEN, 404],
    ["alice", OPEN, 200],
    ["admin", LOCKED, 200],
  ])("the stats page: %s reading %s", async (who, id, status) => {
    expect(await page(at, who, id)).toBe(status);
  });
});
