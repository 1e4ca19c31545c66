// The instances' port (InstanceRegistry of src/instances/registry.ts) on both engines: a start
// writes the row afresh (a restart clears its stop and takes its new settings), a heartbeat renews
// it but never revives a stopped one, a stop marks it, rows unseen for 30 days go at the next start,
// and a second process on the same database (another instance) reads and writes the same rows.

import { expect, test } from "bun:test";
import { FORGET_AFTER_MS, rulingInstances } from "../../src/instances/registry.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";

const MINUTE = 60_000;

forEachEngine("instances", (db) => {
  const instances = () => db().storage.instances;

  test("nothing recorded on a fresh database", async () => {
    expect(await instances().all()).toEqual([]);
  });

  test("started writes the row with its settings; seen renews it; stopped marks it", async () => {
    const r = instances();
    await r.started("vm:8080", NOW, { webhookAllowPrivate: false });
    expect(await r.all()).toEqual([{ name: "vm:8080", startedAt: NOW, seenAt: NOW, stoppedAt: null, webhookAllowPrivate: false }]);
    await r.seen("vm:8080", NOW + MINUTE);
    expect(await r.all()).toEqual([{ name: "vm:8080", startedAt: NOW, seenAt: NOW + MINUTE, stoppedAt: null, webhookAllowPrivate: false }]);
    await r.stopped("vm:8080", NOW + 2 * MINUTE);
    expect(await r.all()).toEqual([{ name: "vm:8080", startedAt: NOW, seenAt: NOW + 2 * MINUTE, stoppedAt: NOW + 2 * MINUTE, webhookAllowPrivate: false }]);
    // A heartbeat that comes late, after the stop, does not make it run again.
    await r.seen("vm:8080", NOW + 3 * MINUTE);
    expect((await r.all())[0]).toMatchObject({ seenAt: NOW + 2 * MINUTE, stoppedAt: NOW + 2 * MINUTE });
    // Unknown names change nothing.
    await r.seen("other:1", NOW);
    await r.stopped("other:1", NOW);
    expect(await r.all()).toHaveLength(1);
  });

  test("a restart under the same name writes the row afresh: the new settings, no stop", async () => {
    const r = instances();
    await r.started("vm:8080", NOW, { webhookAllowPrivate: false });
    await r.stopped("vm:8080", NOW + MINUTE);
    await r.started("vm:8080", NOW + 2 * MINUTE, { webhookAllowPrivate: true });
    expect(await r.all()).toEqual([{ name: "vm:8080", startedAt: NOW + 2 * MINUTE, seenAt: NOW + 2 * MINUTE, stoppedAt: null, webhookAllowPrivate: true }]);
  });

  test("rows unseen for 30 days are forgotten at the next start of any instance; newer ones stay", async () => {
    const r = instances();
    await r.started("old:8080", NOW, { webhookAllowPrivate: false });
    await r.stopped("old:8080", NOW + MINUTE);
    await r.started("killed:8080", NOW + 2 * MINUTE, { webhookAllowPrivate: true });
    await r.started("recent:8080", NOW + FORGET_AFTER_MS / 2, { webhookAllowPrivate: true });
    await r.started("new:8080", NOW + MINUTE + FORGET_AFTER_MS + 1, { webhookAllowPrivate: false });
    expect((await r.all()).map((i) => i.name)).toEqual(["killed:8080", "new:8080", "recent:8080"]);
    await r.started("newer:8080", NOW + 2 * MINUTE + FORGET_AFTER_MS + 1, { webhookAllowPrivate: false });
    expect((await r.all()).map((i) => i.name)).toEqual(["new:8080", "newer:8080", "recent:8080"]);
  });

  test("another process on the database (a second instance, or a command) reads and writes the same rows", async () => {
    await instances().started("a:8080", NOW, { webhookAllowPrivate: true });
    const other = await db().reopen(); // closed with the engine
    await other.storage.instances.started("b:8080", NOW + 1, { webhookAllowPrivate: false });
    const seenByFirst = await instances().all();
    expect(seenByFirst.map((i) => [i.name, i.webhookAllowPrivate])).toEqual([["a:8080", true], ["b:8080", false]]);
    // Both run: both rule, and one of them does not allow private receivers.
    expect(rulingInstances(seenByFirst, NOW + MINUTE).map((i) => i.name)).toEqual(["a:8080", "b:8080"]);
    await other.storage.instances.stopped("b:8080", NOW + MINUTE);
    expect(rulingInstances(await instances().all(), NOW + 2 * MINUTE).map((i) => i.name)).toEqual(["a:8080"]);
  });
});
