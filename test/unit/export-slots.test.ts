// The places of the exports running (src/http/export-slots.ts; docs/statistics.md: Exporting visits):
// at most EXPORTS_PER_CALLER of one caller and EXPORTS_IN_ALL in all; a place is given back exactly
// once whatever ends the export's stream (read to its end, cancelled, failed) or when no stream is
// answered (a refusal, a throw).

import { expect, test } from "bun:test";
import type { Principal } from "../../src/auth/policy.ts";
import { EXPORTS_IN_ALL, EXPORTS_PER_CALLER, exportSlots, withExportSlot } from "../../src/http/export-slots.ts";
import { EXPORT_START, visitExportStream, type ExportChunk, type VisitExportSource } from "../../src/stats/visit-export.ts";

const caller = (keyId: number): Principal => ({ keyId, user: null, name: `k${keyId}`, scope: "create", via: "key" });
const QUERY = { scope: { links: { linkSeq: 1 } }, fromTs: 0, toTs: 1e15, excludeBots: false, after: EXPORT_START, format: "jsonl" as const, domainNames: {} };
const chunk = (done: boolean): ExportChunk => ({ bytes: new TextEncoder().encode("{}\n"), rows: 1, next: { batch: 1, position: 0 }, done });

test("two of one caller, four in all; a place given back twice counts once", () => {
  expect([EXPORTS_PER_CALLER, EXPORTS_IN_ALL]).toEqual([2, 4]);
  const slots = exportSlots();
  const a1 = slots.take("a")!;
  const a2 = slots.take("a")!;
  expect(slots.take("a")).toBeNull();
  const b1 = slots.take("b")!;
  expect(slots.take("c")).not.toBeNull();
  expect(slots.running()).toBe(4);
  expect(slots.take("d")).toBeNull();
  a1();
  a1();
  expect(slots.running()).toBe(3);
  expect(slots.take("a")).not.toBeNull();
  expect(slots.take("a")).toBeNull();
  a2();
  b1();
  expect(slots.running()).toBe(2);
});

/** An export through withExportSlot over `source`: its answer, and the slots. */
async function opened(source: VisitExportSource, slots = exportSlots()) {
  const response = await withExportSlot(slots, caller(1), async (ended) => ({ ok: true, value: visitExportStream(source, QUERY, () => ended()) }), (stream) => new Response(stream));
  return { response, slots };
}

test("the place is held while the stream runs and given back once when it is read to its end", async () => {
  const { response, slots } = await opened({ chunk: async () => chunk(true) });
  expect(slots.running()).toBe(1);
  expect(await response.text()).toBe("{}\n");
  expect(slots.running()).toBe(0);
});

test("cancelled by its reader, even while a chunk is being read: given back once", async () => {
  let answer = (_: ExportChunk) => {};
  const { response, slots } = await opened({ chunk: () => new Promise<ExportChunk>((resolve) => (answer = resolve)) });
  const reader = response.body!.getReader();
  const read = reader.read();
  await reader.cancel();
  expect(slots.running()).toBe(0);
  answer(chunk(false));
  await read;
  slots.take("x");
  expect(slots.running()).toBe(1);
});

test("a failed read gives the place back; so do a refusal and a throw before any stream", async () => {
  const { response, slots } = await opened({ chunk: async () => { throw new Error("database away"); } });
  expect(slots.running()).toBe(1);
  await expect(response.text()).rejects.toThrow("database away");
  expect(slots.running()).toBe(0);
  const refused = await withExportSlot(slots, caller(2), async () => ({ ok: false, response: new Response(null, { status: 404 }) }), (s) => new Response(s));
  expect([refused.status, slots.running()]).toEqual([404, 0]);
  await expect(withExportSlot(slots, caller(2), async () => { throw new Error("boom"); }, (s) => new Response(s))).rejects.toThrow("boom");
  expect(slots.running()).toBe(0);
});

test("past a limit: 429 rate_limited with Retry-After, in the API's error format", async () => {
  const slots = exportSlots();
  slots.take("key 1");
  slots.take("key 1");
  const refused = await withExportSlot(slots, caller(1), async () => { throw new Error("never opened"); }, (s) => new Response(s));
  expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "10"]);
  expect(await refused.json()).toMatchObject({ success: false, code: "rate_limited" });
});
