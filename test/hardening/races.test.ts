// Races: many creates of one alias in every accepted body format, clicks on a link while it is
// being created or deleted. SQLite's primary key decides who wins; the click path must never see a
// half state, and a deleted link's clicks still on their way must not be written back.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { openStored } from "../support/stored.ts";
import { click, drained } from "../support/clicks.ts";
import { makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
});
afterAll(() => server.dispose());

/** One create of alias in the i-th of the three accepted formats. */
function createAs(i: number, alias: string, url: string): Promise<Response> {
  const endpoint = `${server.url}/api/create`;
  switch (i % 3) {
    case 0: {
      const form = new FormData();
      form.append("url", url);
      form.append("custom_url", alias);
      return fetch(endpoint, { method: "POST", body: form });
    }
    case 1:
      return fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ url, custom_url: alias }).toString(),
      });
    default:
      return fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, custom_url: alias }) });
  }
}

test("20 racing creates of one alias in mixed content types: one 201, nineteen 409, and the winner's URL is stored", async () => {
  const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => createAs(i, "mixed-race", `https://example.com/racer/${i}`)));
  const bodies = await Promise.all(responses.map((r) => r.json()));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  for (const b of bodies.filter((b) => !b.success)) expect(b).toMatchObject({ code: "alias_taken", field: "custom_url" });
  const winner = statuses.indexOf(201);
  const location = (await click(server.url, "mixed-race", {}, "HEAD")).headers.get("location");
  expect(location).toBe(`https://example.com/racer/${winner}`);
});

test("200 concurrent creates with generated ids: all 201, all ids distinct and resolvable", async () => {
  const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => createAs(i, "", `https://example.com/gen/${i}`)));
  expect(responses.every((r) => r.status === 201)).toBe(true);
  const ids = (await Promise.all(responses.map((r) => r.json()))).map((b) => b.data.shortUrl.split("/").pop() as string);
  expect(new Set(ids).size).toBe(200);
  const heads = await Promise.all(ids.map((id) => click(server.url, id, {}, "HEAD")));
  expect(heads.every((r) => r.status === 302)).toBe(true);
});

test("clicks racing the creation of their link: only 404 before and 302 after, never 5xx", async () => {
  for (let round = 0; round < 5; round++) {
    const alias = `born-${round}`;
    let created = false;
    let stop = false;
    const seen: { status: number; afterAck: boolean }[] = [];
    // Eight clients click in a loop from before the create is sent until well after it is answered.
    const clickers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const afterAck = created;
        const res = await click(server.url, alias);
        await res.arrayBuffer();
        seen.push({ status: res.status, afterAck });
      }
    });
    // Clicks have been answered before the create is sent (each one a 404).
    expect(await eventually(async () => seen.length, (n) => n >= 8, 10_000, 2)).toBeGreaterThanOrEqual(8);
    const res = await createAs(round, alias, `https://example.com/born/${round}`);
    expect(res.status).toBe(201);
    created = true;
    // Let every clicker finish at least a few clicks that started after the acknowledgement.
    expect(await eventually(async () => seen.filter((s) => s.afterAck).length, (n) => n >= 16, 10_000, 2)).toBeGreaterThanOrEqual(16);
    stop = true;
    await Promise.all(clickers);
    expect(seen.every((s) => s.status === 302 || s.status === 404)).toBe(true);
    // Read-your-write: once the create was answered, no click may miss it.
    expect(seen.filter((s) => s.afterAck).every((s) => s.status === 302)).toBe(true);
  }
  expect(server.output()).not.toContain("request failed");
});

test("a delete racing a flood of clicks: every click is a 302 before and a 410 after, and nothing of the link is written back", async () => {
  const key = makeKey(server.dbPath, "racer");
  expect((await createAs(0, "flooded", "https://example.com/flooded")).status).toBe(201);
  let deleting = false;
  let deleted = false;
  const statuses: number[] = [];
  const afterDelete: number[] = [];
  const clicker = async () => {
    for (let i = 0; i < 200; i++) {
      const wasDeleted = deleted;
      const status = (await click(server.url, "flooded", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" })).status;
      statuses.push(status);
      if (wasDeleted) afterDelete.push(status);
      if (i === 100 && !deleting) {
        deleting = true;
        const res = await fetch(`${server.url}/api/links/flooded`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        deleted = true;
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, clicker));
  expect(statuses.every((s) => s === 302 || s === 410)).toBe(true);
  expect(statuses.filter((s) => s === 302).length).toBeGreaterThan(0);
  expect(afterDelete.length).toBeGreaterThan(0);
  expect(afterDelete.every((s) => s === 410)).toBe(true);
  await drained(server.url); // any click queued before the delete has reached the writer
  const db = await openStored(server);
  try {
    // The deleted link's data, by the seq it had (kept with its retired id).
    const seq = (await db.get<{ seq: number }>("SELECT seq FROM retired_ids WHERE id = 'flooded'"))!.seq;
    for (const table of ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup"]) {
      expect({ table, n: (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE link_seq = ?`, seq))?.n }).toEqual({ table, n: 0 });
    }
  } finally {
    await db.close();
  }
  expect((await (await fetch(`${server.url}/health`)).json()).visits.dropped).toBe(0);
});
