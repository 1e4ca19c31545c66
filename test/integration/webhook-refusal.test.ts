// A webhook the service would never deliver is refused when it is added (#34, "Nothing fails
// silently"; docs/webhooks.md: Webhooks, "Where webhooks may post"). The command line judges a private
// receiver by what the service that uses the database recorded at its start (running or stopped),
// and by its own flag only before any service ran there; the API by its own flag, by what a name
// resolves to, and (PostgreSQL) by the other instances running on the database. Runs on SQLite and
// on PostgreSQL (SHORTENER_TEST_ENGINE=postgres). Nothing is ever sent to a 192.168 address: every
// such webhook is refused, or added while no service runs and removed at once.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, cli, makeKey } from "../support/admin.ts";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { specialAddress } from "../../src/outbound/special-addresses.ts";
import { startReceiver } from "../support/webhook-receiver.ts";

const PRIVATE = "http://192.168.1.10/hook";
const add = (db: string, ...extra: string[]) => cli(["webhook", "add", PRIVATE, "--events", "link.created", "--db", db, ...extra]);
const listed = (db: string) => cli(["webhook", "list", "--db", db]).out;

const servers: RunningServer[] = [];
async function started(args: string[] = [], o: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const s = await startServer({ ...o, args });
  servers.push(s);
  return s;
}
afterAll(async () => {
  for (const s of servers.reverse()) await s.dispose();
});

describe("shortener webhook add", () => {
  test("the service was started without --webhook-allow-private: a private receiver exits 2 with the reason, running or stopped, whatever the command's flag", async () => {
    const server = await started();
    for (const flag of [["--webhook-allow-private"], []]) {
      const r = add(server.dbPath, ...flag);
      expect({ flag, code: r.code }).toEqual({ flag, code: 2 });
      expect(r.err).toContain("192.168.1.10 is a private address");
      expect(r.err).toContain(`the service on this database (`);
      expect(r.err).toContain(`:${server.port}, running since`);
      expect(r.err).toContain("was started without --webhook-allow-private and would never post there: start it with --webhook-allow-private");
    }
    expect(await server.stop()).toBe(0);
    const stopped = add(server.dbPath, "--webhook-allow-private");
    expect(stopped.code).toBe(2);
    expect(stopped.err).toContain(`:${server.port}, last running`);
    expect(stopped.err).toContain("--webhook-allow-private on this command does not change what the service does");
    expect(listed(server.dbPath)).not.toContain("192.168.1.10");
  }, 60_000);

  test("the service was started with --webhook-allow-private: accepted without the command's flag (added while it is stopped, and removed)", async () => {
    const server = await started(["--webhook-allow-private"]);
    // Stopped first: the service must never try to post to 192.168.1.10. Its record stays.
    expect(await server.stop()).toBe(0);
    const r = add(server.dbPath);
    expect([r.code, r.err]).toEqual([0, expect.stringContaining("posts link.created to http://192.168.1.10/hook")]);
    const id = listed(server.dbPath).split("\n")[1]!.split(/\s+/)[0]!;
    expect(cli(["webhook", "remove", id, "--db", server.dbPath]).code).toBe(0);
  }, 60_000);

  test("a fresh database on which no service ran yet: the command's own flag decides", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shortener-fresh-"));
    let db = join(dir, "fresh.db");
    try {
      if (onPostgres) db = await (await sharedPostgres()).createDatabase();
      else openDatabase(db).close(); // made as the service makes it, with no service run on it
      const refused = add(db);
      expect([refused.code, refused.err]).toEqual([2, expect.stringContaining("reached only with --webhook-allow-private (no service has run on this database yet")]);
      const accepted = add(db, "--webhook-allow-private");
      expect(accepted.code).toBe(0);
      expect(listed(db)).toContain("http://192.168.1.10/hook");
    } finally {
      if (onPostgres) await (await sharedPostgres()).dropDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A name that /etc/hosts gives a special-purpose address, and that is not a local name by its form: resolved on this machine alone. */
function nameOfThisMachine(): string {
  for (const line of readFileSync("/etc/hosts", "utf8").split("\n")) {
    const [address, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address || specialAddress(address) === null) continue;
    const name = names.find((n) => /^[a-z0-9-]+$/i.test(n) && !/localhost$|^local$/i.test(n));
    if (name) return name;
  }
  throw new Error("this test needs a name besides localhost in /etc/hosts with a loopback or private address (Debian's 127.0.1.1 <hostname>, or ip6-localhost)");
}

describe("POST and PATCH /api/webhooks", () => {
  test("without --webhook-allow-private a name resolving to a special-purpose address is refused (url_private), as a written one is", async () => {
    const strict = await started();
    const key = makeKey(strict.dbPath, "admin");
    const name = nameOfThisMachine();
    const made = await api(strict.url, key, "POST", "/api/webhooks", { url: `http://${name}:9/hook`, events: ["link.created"] });
    expect({ status: made.status, code: made.body.code, field: made.body.field }).toEqual({ status: 400, code: "url_private", field: "url" });
    expect(made.body.error).toContain(`${name} resolves to `);
    expect(made.body.error).toContain("reached only with --webhook-allow-private, which this service was started without");
    // A public address first, then moved to the name: refused the same way.
    const hook = await api(strict.url, key, "POST", "/api/webhooks", { url: "https://hooks.example.invalid/hook", events: ["link.created"] });
    expect(hook.status).toBe(201);
    const moved = await api(strict.url, key, "PATCH", `/api/webhooks/${hook.body.data.id}`, { url: `http://${name}/hook` });
    expect([moved.status, moved.body.code]).toEqual([400, "url_private"]);
    expect((await api(strict.url, key, "GET", `/api/webhooks/${hook.body.data.id}`)).body.data.url).toBe("https://hooks.example.invalid/hook");
  }, 60_000);

  test.skipIf(!onPostgres)("several instances: one with the flag refuses a private receiver while another without it runs; accepts it once that one stopped", async () => {
    const receiver = startReceiver("/hook", "127.0.0.1");
    try {
      const allowing = await started(["--webhook-allow-private"]);
      const strict = await started([], { database: allowing.dbPath });
      const key = makeKey(allowing.dbPath, "admin");
      const refused = await api(allowing.url, key, "POST", "/api/webhooks", { url: receiver.url, events: ["link.created"] });
      expect([refused.status, refused.body.code]).toEqual([400, "url_private"]);
      expect(refused.body.error).toContain(`the instance `);
      expect(refused.body.error).toContain(`:${strict.port} on this database runs without --webhook-allow-private`);
      expect(await strict.stop()).toBe(0);
      const made = await api(allowing.url, key, "POST", "/api/webhooks", { url: receiver.url, events: ["link.created"] });
      expect(made.status).toBe(201);
    } finally {
      receiver.stop();
    }
  }, 60_000);
});
