// Who may do what with links, route by route, through the app in this process (createApp(deps)
// .handle(new Request(…)) on a temp SQLite file: test/support/in-process.ts). Each row: who asks
// (nobody, Alice's or Bob's create key, an admin key, a key that is no key), the request, the status
// and the body's shape; every answer also keeps the OpenAPI document's contract. Every route that
// changes something is tried by those who may not, and what it would have changed is read back.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { inProcessApp, type Answer, type InProcess } from "../support/in-process.ts";

type Who = "nobody" | "alice" | "bob" | "admin" | "bad key";
/** `shape`: what the body must hold (toMatchObject); `ids`: the links the answer names, in any order. */
type Row = { who: Who; status: number; shape?: Record<string, unknown>; ids?: string[] };

const refused = (code: string) => ({ success: false, code });
const ok = (data: Record<string, unknown> = {}) => ({ success: true, data });
// Alice's and Bob's links, and one an admin made; Alice's second is the one deleted.
const ALICE = ["alice-1", "alice-2"];
const BOB = ["bob-1"];
const ROOT = ["root-1"];

let app: InProcess;
const keys = {} as Record<Who, string | null>;

beforeAll(async () => {
  app = await inProcessApp();
  const now = Date.now();
  keys.nobody = null;
  keys.alice = (await app.storage.keys.create("alice", "create", now)).key;
  keys.bob = (await app.storage.keys.create("bob", "create", now)).key;
  keys.admin = (await app.storage.keys.create("root", "admin", now)).key;
  // In the generated format (so it is looked up), never stored. Fewer than ten rows send it: more
  // would reach the failed-attempt limit of the one address every in-process request comes from.
  keys["bad key"] = generateKey();
  for (const [who, ids] of [["alice", ALICE], ["bob", BOB], ["admin", ROOT]] as const) {
    for (const id of ids) expect((await call(who, "POST", "/api/create", { url: `https://example.com/${id}`, custom_url: id })).status).toBe(201);
  }
}, 30_000);

afterAll(async () => {
  await app.close();
}, 30_000);

async function call(who: Who, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer> {
  const answer = await app.call(keys[who], method, path, body, headers);
  expect(answer.contract).toBeNull();
  return answer;
}

function expectRow(answer: Answer, row: Row, named: (body: any) => string[]): void {
  expect({ status: answer.status, body: answer.body }).toMatchObject(row.shape === undefined ? { status: row.status } : { status: row.status, body: row.shape });
  if (row.ids !== undefined) expect(named(answer.body).sort()).toEqual([...row.ids].sort());
}

const listed = (body: any) => (body.data.links as { id: string }[]).map((l) => l.id);

describe("GET /api/links: the links one may see", () => {
  test.each<Row>([
    { who: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", status: 401, shape: refused("auth_invalid") },
    { who: "alice", status: 200, shape: ok({ nextCursor: null }), ids: ALICE },
    { who: "bob", status: 200, shape: ok({ nextCursor: null }), ids: BOB },
    { who: "admin", status: 200, shape: ok({ nextCursor: null }), ids: [...ALICE, ...BOB, ...ROOT] },
  ])("$who: $status", async (row) => {
    expectRow(await call(row.who, "GET", "/api/links"), row, listed);
  });
});

describe("GET /api/links/<id>: Alice's link", () => {
  test.each<Row>([
    { who: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", status: 401, shape: refused("auth_invalid") },
    { who: "bob", status: 404, shape: { ...refused("not_found"), field: "id" } }, // not 403: it would confirm the link exists
    { who: "alice", status: 200, shape: ok({ id: "alice-1", originalUrl: "https://example.com/alice-1", shortUrl: "http://localhost:8080/alice-1" }) },
    { who: "admin", status: 200, shape: ok({ id: "alice-1" }) },
  ])("$who: $status", async (row) => {
    expectRow(await call(row.who, "GET", "/api/links/alice-1"), row, () => []);
  });

  test("an unknown id and a malformed one are the same 404", async () => {
    for (const id of ["no-such-link", "x"]) expect((await call("admin", "GET", `/api/links/${id}`)).body).toMatchObject({ ...refused("not_found"), field: "id" });
  });
});

describe("PATCH /api/links/<id>: Alice's link", () => {
  test.each<Row & { tag: string }>([
    { who: "nobody", tag: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", tag: "bad", status: 401, shape: refused("auth_invalid") },
    { who: "bob", tag: "bob", status: 404, shape: refused("not_found") },
    { who: "alice", tag: "alice", status: 200, shape: ok({ id: "alice-1", tags: ["alice"] }) },
    { who: "admin", tag: "admin", status: 200, shape: ok({ id: "alice-1", tags: ["admin"] }) },
  ])("$who: $status, and the link's tags are whose change went through", async (row) => {
    const before = (await call("admin", "GET", "/api/links/alice-1")).body.data.tags;
    expectRow(await call(row.who, "PATCH", "/api/links/alice-1", { tags: [row.tag] }), row, () => []);
    expect((await call("admin", "GET", "/api/links/alice-1")).body.data.tags).toEqual(row.status === 200 ? [row.tag] : before);
  });

  test.each<[string, unknown, Record<string, string>, number, Record<string, unknown>]>([
    ["a field PATCH does not take", { colour: "red" }, {}, 400, refused("bad_request")],
    ["a destination that is no URL", { url: "nope" }, {}, 400, { ...refused("url_scheme"), field: "url" }],
    ["a link to this service itself", { url: "http://localhost:8080/x" }, {}, 400, { ...refused("url_self"), field: "url" }],
    ["a body that is not JSON", "{", { "content-type": "application/json" }, 400, refused("bad_request")],
    ["a body of another type", "tags=x", { "content-type": "application/x-www-form-urlencoded" }, 415, refused("unsupported_media_type")],
  ])("Alice's own change refused: %s", async (_, body, headers, status, shape) => {
    const answer = await call("alice", "PATCH", "/api/links/alice-1", body, headers);
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status, body: shape });
  });
});

describe("DELETE /api/links/<id>: Alice's second link", () => {
  test.each<Row>([
    { who: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", status: 401, shape: refused("auth_invalid") },
    { who: "bob", status: 404, shape: refused("not_found") },
    { who: "alice", status: 200, shape: ok({ id: "alice-2", deleted: true }) },
    { who: "admin", status: 404, shape: refused("not_found") }, // gone: Alice deleted it
  ])("$who: $status, and the link is there until its owner deletes it", async (row) => {
    expectRow(await call(row.who, "DELETE", "/api/links/alice-2"), row, () => []);
    const gone = row.who === "alice" || row.who === "admin";
    expect((await call("admin", "GET", "/api/links/alice-2")).status).toBe(gone ? 404 : 200);
  });
});

describe("GET /api/links/export: the links one may see, as CSV", () => {
  const exported = (body: string) => body.trim().split("\n").slice(1).map((line) => line.split(",")[1]!);
  test.each<Row>([
    { who: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", status: 401, shape: refused("auth_invalid") },
    { who: "alice", status: 200, ids: ["alice-1"] },
    { who: "bob", status: 200, ids: BOB },
    { who: "admin", status: 200, ids: ["alice-1", ...BOB, ...ROOT] },
  ])("$who: $status", async (row) => {
    expectRow(await call(row.who, "GET", "/api/links/export?format=csv"), row, exported);
  });

  test("chosen ids: those one may not see are left out", async () => {
    expect(exported((await call("bob", "GET", "/api/links/export?ids=alice-1,bob-1")).body)).toEqual(["bob-1"]);
  });

  test("a format that is neither csv nor json, and too many ids, are 400s naming the parameter", async () => {
    expect((await call("alice", "GET", "/api/links/export?format=xml")).body).toMatchObject({ ...refused("bad_request"), field: "format" });
    const ids = Array.from({ length: 201 }, (_, i) => `id-${i}`).join(",");
    expect((await call("alice", "GET", `/api/links/export?ids=${ids}`)).body).toMatchObject({ ...refused("bad_request"), field: "ids" });
  });
});

describe("POST /api/links/import: rows made as the key's own links", () => {
  const csv = (id: string) => `url,custom_url\nhttps://example.com/${id},${id}\n`;
  test.each<Row & { id: string }>([
    { who: "nobody", id: "imp-nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", id: "imp-bad", status: 401, shape: refused("auth_invalid") },
    { who: "bob", id: "imp-bob", status: 200, shape: ok({ created: [{ row: 1, id: "imp-bob", shortUrl: "http://localhost:8080/imp-bob" }], failed: [] }) },
  ])("$who: $status, and the link exists only when it was made", async (row) => {
    expectRow(await call(row.who, "POST", "/api/links/import", csv(row.id), { "content-type": "text/csv" }), row, () => []);
    expect((await call("bob", "GET", `/api/links/${row.id}`)).status).toBe(row.status === 200 ? 200 : 404);
    expect((await call("alice", "GET", `/api/links/${row.id}`)).status).toBe(404);
  });

  test("a row that breaks a rule is reported, the others made", async () => {
    const body = [{ url: "https://example.com/ok", custom_url: "imp-ok" }, { url: "ftp://x" }, 7];
    const answer = await call("alice", "POST", "/api/links/import", body);
    expect(answer.body).toMatchObject(ok({ created: [{ row: 1, id: "imp-ok" }], failed: [{ row: 2, code: "url_scheme" }, { row: 3, code: "bad_request" }] }));
  });
});

describe("POST /api/create: anyone (--create-access public), a bad key refused", () => {
  test.each<Row & { id: string }>([
    { who: "nobody", id: "pub-1", status: 201, shape: { success: true, data: { shortUrl: "http://localhost:8080/pub-1" } } },
    { who: "bad key", id: "pub-2", status: 401, shape: refused("auth_invalid") },
    { who: "alice", id: "pub-3", status: 201, shape: { success: true, data: { shortUrl: "http://localhost:8080/pub-3" } } },
  ])("$who: $status", async (row) => {
    expectRow(await call(row.who, "POST", "/api/create", { url: "https://example.com/p", custom_url: row.id }), row, () => []);
  });

  test("a taken alias is a 409; several bad fields are one 400 listing each", async () => {
    expect((await call("bob", "POST", "/api/create", { url: "https://example.com/x", custom_url: "bob-1" })).body).toMatchObject({ ...refused("alias_taken"), field: "custom_url" });
    const answer = await call("bob", "POST", "/api/create", { url: "nope", custom_url: "a b" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { field: string }) => e.field)).toEqual(["url", "custom_url"]);
  });
});

describe("GET /api/overview: figures over the links one may see", () => {
  test.each<Row & { links: number }>([
    { who: "nobody", links: 0, status: 401, shape: refused("auth_required") },
    { who: "bad key", links: 0, status: 401, shape: refused("auth_invalid") },
    { who: "alice", links: 3, status: 200 }, // alice-1, imp-ok, pub-3
    { who: "admin", links: 7, status: 200 }, // and bob-1, root-1, imp-bob, pub-1
  ])("$who: $status", async (row) => {
    const answer = await call(row.who, "GET", "/api/overview");
    expectRow(answer, row, () => []);
    if (row.status === 200) expect(answer.body.data.links).toBe(row.links);
  });
});

describe("GET /api/stats (--stats-access public): anyone reads a link's statistics", () => {
  test.each<Row>([
    { who: "nobody", status: 200, shape: ok({ link: { id: "bob-1", originalUrl: "https://example.com/bob-1" } }) },
    // Nobody is asked about a link without a password: a key, good or not, is not read.
    { who: "bad key", status: 200, shape: ok({ link: { id: "bob-1" } }) },
    { who: "alice", status: 200, shape: ok({ link: { id: "bob-1" } }) },
  ])("$who: $status", async (row) => {
    expectRow(await call(row.who, "GET", "/api/stats?id=bob-1"), row, () => []);
  });

  test("an unknown link: 404 not_found", async () => {
    expect((await call("nobody", "GET", "/api/stats?id=no-such-link")).body).toMatchObject({ ...refused("not_found"), field: "id" });
  });
});

test("each action of a key is one audit line: its name, the action, the id, the result", () => {
  const lines = app.logged.filter((l) => l.startsWith("management "));
  expect(lines).toContain('management {"key":"bob","action":"update","id":"alice-1","result":"not_found"}');
  expect(lines).toContain('management {"key":"alice","action":"update","id":"alice-1","result":"ok tags"}');
  expect(lines).toContain('management {"key":"alice","action":"delete","id":"alice-2","result":"ok"}');
  expect(lines).toContain('management {"key":"bob","action":"import","id":null,"result":"ok 1 created, 0 failed"}');
  expect(lines).toContain('management {"key":"alice","action":"create","id":"pub-3","result":"ok"}');
  expect(lines.some((l) => l.includes('"key":"alice","action":"export"') && l.includes('"result":"started csv"'))).toBe(true);
});

describe("--create-access key --stats-access key: nobody may create, or read statistics", () => {
  let closed: InProcess;
  const closedKeys = {} as Record<Who, string | null>;
  beforeAll(async () => {
    closed = await inProcessApp(["--create-access", "key", "--stats-access", "key"]);
    const now = Date.now();
    closedKeys.nobody = null;
    closedKeys["bad key"] = generateKey();
    for (const [who, scope] of [["alice", "create"], ["bob", "create"], ["admin", "admin"]] as const) closedKeys[who] = (await closed.storage.keys.create(who, scope, now)).key;
    expect((await closed.call(closedKeys.alice, "POST", "/api/create", { url: "https://example.com/a", custom_url: "alice-1" })).status).toBe(201);
  }, 30_000);

  test.each<Row>([
    { who: "nobody", status: 401, shape: refused("auth_required") },
    { who: "bad key", status: 401, shape: refused("auth_invalid") },
    { who: "bob", status: 404, shape: refused("not_found") }, // another's link looks unknown
    { who: "alice", status: 200, shape: ok({ link: { id: "alice-1", originalUrl: "https://example.com/a" } }) },
    { who: "admin", status: 200, shape: ok({ link: { id: "alice-1" } }) },
  ])("GET /api/stats, $who: $status", async (row) => {
    const answer = await closed.call(closedKeys[row.who], "GET", "/api/stats?id=alice-1");
    expect(answer.contract).toBeNull();
    expectRow(answer, row, () => []);
  });
  afterAll(async () => {
    await closed.close();
  }, 30_000);

  test("without a key: 401 auth_required, and no link is made", async () => {
    const answer = await closed.call(null, "POST", "/api/create", { url: "https://example.com/x", custom_url: "closed-1" });
    expect({ status: answer.status, body: answer.body, contract: answer.contract }).toMatchObject({ status: 401, body: refused("auth_required"), contract: null });
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="shortener"');
    expect(await closed.storage.links.get("closed-1")).toBeNull();
  });

  test("with a create key: 201", async () => {
    const { key } = await closed.storage.keys.create("carol", "create", Date.now());
    expect((await closed.call(key, "POST", "/api/create", { url: "https://example.com/x", custom_url: "closed-2" })).status).toBe(201);
  });
});
