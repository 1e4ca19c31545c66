// How many exports of visits run at once (docs/statistics.md: Exporting visits, "How many at once"),
// through the app in this process (test/support/in-process.ts): an answer's stream is held unread,
// so an export runs for as long as the test wants. Two of one caller and four in all, a link's
// visits and visits to no link together; past either, 429 rate_limited with Retry-After; an export
// read to its end or cancelled gives its place back.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { inProcessApp, type InProcess } from "../support/in-process.ts";

let app: InProcess;
const keys: Record<"alice" | "bob" | "carol" | "admin", string> = { alice: "", bob: "", carol: "", admin: "" };

beforeAll(async () => {
  app = await inProcessApp([]);
  for (const who of ["alice", "bob", "carol", "admin"] as const) keys[who] = (await app.storage.keys.create(who, who === "admin" ? "admin" : "create", Date.now())).key;
  expect((await app.call(keys.alice, "POST", "/api/create", { url: "https://example.com/a", custom_url: "al-ex" })).status).toBe(201);
}, 30_000);
afterAll(async () => {
  await app.close();
}, 30_000);

/** An export's answer, its body unread: the export runs until it is read or cancelled. */
const open = (key: string, path = "/api/visits/export?format=jsonl") =>
  app.handle(new Request(`http://localhost:8080${path}`, { headers: { host: "localhost:8080", authorization: `Bearer ${key}` } }));

test("two of one caller; the third is 429 rate_limited with Retry-After until one is read to its end", async () => {
  const first = await open(keys.alice);
  const second = await open(keys.alice, "/api/visits/export?id=al-ex");
  expect([first.status, second.status]).toEqual([200, 200]);
  const third = await open(keys.alice);
  expect([third.status, third.headers.get("retry-after")]).toEqual([429, "10"]);
  expect(await third.json()).toMatchObject({ success: false, code: "rate_limited" });
  // Another caller is not held back by alice's.
  const bobs = await open(keys.bob);
  expect(bobs.status).toBe(200);
  await first.text();
  const again = await open(keys.alice);
  expect(again.status).toBe(200);
  for (const r of [second, bobs, again]) await r.body!.cancel();
});

test("four in all, visits to no link counted with a link's; a cancelled export frees its place", async () => {
  const running = [await open(keys.alice), await open(keys.bob), await open(keys.carol), await open(keys.admin, "/api/orphan-visits/export")];
  expect(running.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  const fifth = await open(keys.admin);
  expect([fifth.status, (await fifth.json()).code]).toEqual([429, "rate_limited"]);
  const orphans = await open(keys.admin, "/api/orphan-visits/export");
  expect(orphans.status).toBe(429);
  await orphans.arrayBuffer();
  await running[1]!.body!.cancel();
  const admitted = await open(keys.admin, "/api/orphan-visits/export?format=jsonl");
  expect(admitted.status).toBe(200);
  for (const r of [running[0]!, running[2]!, running[3]!, admitted]) await r.text();
});

test("a refused export takes no place: 404 and 400 leave the caller's two", async () => {
  for (let i = 0; i < 3; i++) expect((await open(keys.carol, "/api/visits/export?id=nope")).status).toBe(404);
  expect((await open(keys.carol, "/api/visits/export?format=xml")).status).toBe(400);
  const held = [await open(keys.carol), await open(keys.carol)];
  expect(held.map((r) => r.status)).toEqual([200, 200]);
  for (const r of held) await r.text();
});
