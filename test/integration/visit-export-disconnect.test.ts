// A client that goes away in the middle of GET /api/visits/export stops the read (docs/statistics.md:
// Exporting visits, "Streamed"): 25,000 visits planted in the store (more than two chunks of at most
// 10,000), one chunk taken, the connection dropped; the export's audit line then says it was
// cancelled, with fewer rows sent than there are, and the service answers the next export whole.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { seedVisits } from "../support/seed-visits.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(120_000);

const N = 25_000;
let s: RunningServer;
let admin: string;

beforeAll(async () => {
  s = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(s.dbPath, "admin");
  expect((await api(s.url, admin, "POST", "/api/create", { url: "https://example.com/many", custom_url: "many" })).status).toBe(201);
  await seedVisits(s, "many", N, Date.parse("2026-03-01T00:00:00.000Z"));
}, 120_000);
afterAll(() => s?.dispose());

const CANCELLED = /action=visits-export id=many result="cancelled (\d+)"/;

test("dropped after the first chunk: the read stops, the audit line says cancelled with fewer rows than stored", async () => {
  const aborted = new AbortController();
  const r = await fetch(`${s.url}/api/visits/export?id=many&format=jsonl`, { headers: { authorization: `Bearer ${admin}` }, signal: aborted.signal });
  expect(r.status).toBe(200);
  const reader = r.body!.getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  aborted.abort();
  await reader.cancel().catch(() => {});
  const said = await eventually(async () => s.output(), (out) => CANCELLED.test(out));
  const sent = Number(CANCELLED.exec(said)?.[1]);
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThan(N);
  expect(said).not.toContain('action=visits-export id=many result="done');

  // The service goes on: the next export is whole.
  const whole = await (await fetch(`${s.url}/api/visits/export?id=many&format=jsonl`, { headers: { authorization: `Bearer ${admin}` } })).text();
  expect(whole.split("\n").filter(Boolean)).toHaveLength(N);
  expect(await eventually(async () => s.output(), (out) => out.includes(`action=visits-export id=many result="done ${N}"`))).toContain(`result="done ${N}"`);
});
