// Threads only when needed (#36; docs/architecture.md: Threads): a real service process at rest runs
// no reader and no delivery thread; a read of statistics starts the reader (SQLite; PostgreSQL has
// none), a webhook starts the delivery thread, which delivers to a receiver on 127.0.0.1, and with
// the last webhook deleted the delivery thread is gone. The threads are read by name from
// /proc/<pid>/task/*/comm (src/threads/policy.ts nameThisThread); every wait is for a fact, bounded.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

let server: RunningServer;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  server = await startServer({ args: ["--webhook-allow-private", "--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "admin");
  receiver = startReceiver("/hook", "127.0.0.1");
}, 60_000);
afterAll(async () => {
  receiver?.stop();
  await server?.dispose();
});

/** The names of the service process's threads now. */
function threadNames(pid: number): string[] {
  const names: string[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      names.push(readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim());
    } catch {
      // the thread ended meanwhile
    }
  }
  return names;
}

const has = (name: string) => threadNames(server.proc.pid).includes(name);

test.skipIf(process.platform !== "linux")(
  "at rest no reader and no delivery thread; a stats read starts the reader (SQLite), a webhook the delivery thread, and the last webhook's deletion stops it",
  async () => {
    // At rest: the recorder runs (it was named once started), nothing else of ours.
    expect(await eventually(async () => has("recorder"), (ok) => ok, 15_000)).toBe(true);
    expect(threadNames(server.proc.pid)).not.toContain("reader");
    expect(threadNames(server.proc.pid)).not.toContain("delivery");

    await madeLink(server.url, key, "on-demand");
    const stats = await api(server.url, key, "GET", "/api/stats?id=on-demand");
    expect(stats.status).toBe(200);
    // SQLite reads statistics on the reader thread, started by this first read; PostgreSQL has none.
    expect(await eventually(async () => has("reader"), (ok) => ok, 15_000)).toBe(!onPostgres);
    expect(has("delivery")).toBe(false);

    const made = await api(server.url, key, "POST", "/api/webhooks", { url: receiver.url, events: ["link.created"] });
    expect(made.status).toBe(201);
    receiver.setSecret(made.body.data.secret);
    expect(await eventually(async () => has("delivery"), (ok) => ok, 15_000)).toBe(true);
    await madeLink(server.url, key, "on-demand-2");
    const got = await eventually(async () => receiver.ofType("link.created"), (r) => r.some((e) => e.body.data.link.id === "on-demand-2"), 30_000);
    expect(got.find((e) => e.body.data.link.id === "on-demand-2")?.verified).toBe("ok");

    expect((await api(server.url, key, "DELETE", `/api/webhooks/${made.body.data.id}`)).status).toBe(200);
    expect(await eventually(async () => has("delivery"), (present) => !present, 30_000)).toBe(false);
    // Two webhooks made at once start the thread again, once: one delivery thread, not two.
    const both = await Promise.all([0, 1].map(() => api(server.url, key, "POST", "/api/webhooks", { url: receiver.url, events: ["link.created"] })));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(await eventually(async () => has("delivery"), (ok) => ok, 15_000)).toBe(true);
    await madeLink(server.url, key, "on-demand-3");
    const twice = await eventually(async () => receiver.ofType("link.created").filter((e) => e.body.data.link.id === "on-demand-3"), (r) => r.length >= 2, 30_000);
    expect(twice.length).toBe(2);
    expect(threadNames(server.proc.pid).filter((name) => name === "delivery")).toEqual(["delivery"]);
  },
  120_000,
);
