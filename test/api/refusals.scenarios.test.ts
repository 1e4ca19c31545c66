// Refusals that name the right parameter and echo no more of it than a glance needs, through the
// app in this process (test/support/in-process.ts): a comparison's or an aggregate's unknown
// name or domain is cut in the message (as a link's id is everywhere: src/ops/links/get.ts); the
// summary of visits to no link blames `to` when a `to` in year 0 leaves its default `from` no date.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { inProcessApp, type InProcess } from "../support/in-process.ts";

let app: InProcess;
let admin: string;
const LONG = "x".repeat(10_000);

beforeAll(async () => {
  app = await inProcessApp([]);
  admin = (await app.storage.keys.create("admin", "admin", Date.now())).key;
  expect((await app.call(admin, "POST", "/api/create", { url: "https://example.com/a", custom_url: "re-one", tags: ["t"] })).status).toBe(201);
}, 30_000);
afterAll(async () => {
  await app.close();
}, 30_000);

test.each([
  ["/api/stats/compare?ids=re-one," + LONG, 404, "not_found"],
  ["/api/stats/compare?ids=re-one,re-two&domain=" + LONG, 400, "domain_unknown"],
  ["/api/stats/tag?tag=t&domain=" + LONG, 400, "domain_unknown"],
  ["/api/visits/export?domain=" + LONG, 400, "domain_unknown"],
  ["/api/visits/export?id=" + LONG, 404, "not_found"],
])("%#: a 10,000-character name is not echoed whole", async (path, status, code) => {
  const answer = await app.call(admin, "GET", path);
  expect(answer.contract).toBeNull();
  expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
  expect(answer.body.error.length).toBeLessThan(200);
});

test("the orphan summary: a to in year 0 is blamed, not the from it leaves undated", async () => {
  const early = await app.call(admin, "GET", "/api/orphan-visits?to=0000-01-05");
  expect(early.contract).toBeNull();
  expect([early.status, early.body.code, early.body.field]).toEqual([400, "bad_range", "to"]);
  const bad = await app.call(admin, "GET", "/api/orphan-visits?to=2026-13-01&from=nope");
  expect([bad.status, bad.body.field]).toEqual([400, "to"]);
  const from = await app.call(admin, "GET", "/api/orphan-visits?from=0000-01-01&to=0000-01-05");
  expect([from.status]).toEqual([200]);
});

test("an export's tag is checked as the tag's statistics check it: 400 tags_invalid naming tag", async () => {
  for (const path of ["/api/visits/export?tag=no%20tag", "/api/stats/tag?tag=no%20tag"]) {
    const answer = await app.call(admin, "GET", path);
    expect([path, answer.status, answer.body.code, answer.body.field]).toEqual([path, 400, "tags_invalid", "tag"]);
  }
});
