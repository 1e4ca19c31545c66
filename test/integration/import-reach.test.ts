// The dashboard's import under the outbound policy (docs/security.md: Security, "Outbound requests"; finding
// 6 of #33): without --import-allow-private it refuses a written loopback or link-local address
// when the import is posted, and a name that resolves to one (localhost, through /etc/hosts) when
// the job runs, and never connects: the servers here, on 127.0.0.1, see nothing. With the flag it
// imports from them. What a target answers (an error body, a MySQL server's message) never comes
// back in the job. The command-line importer reaches 127.0.0.1 without any flag. Nothing is sent
// to any address but 127.0.0.1 (169.254.169.254 is refused before anything is resolved).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, makeKey } from "../support/admin.ts";
import { shlinkShortUrl, startShlink } from "../support/peers/shlink.ts";
import type { Peer } from "../support/peers/fault.ts";

/** Text the targets send that must never appear in a job's answer. */
const SECRET = "internal-service-banner-7f3a";

let strict: RunningServer; // the default: no --import-allow-private
let allowed: RunningServer;
let strictKey: string;
let allowedKey: string;
let shlink: Peer; // a Shlink on 127.0.0.1
let tattler: ReturnType<typeof Bun.serve>; // answers every request with SECRET in the body
const tattled: string[] = [];
let mysql: TCPSocketListener<undefined>; // answers every connection with a MySQL error packet quoting SECRET
let mysqlConnections = 0;

/** A MySQL ERR packet (0xff, error number, message), as a server sends one instead of its greeting (MySQL's Protocol::ERR_Packet). */
function mysqlError(errno: number, message: string): Buffer {
  const payload = Buffer.concat([Buffer.from([0xff, errno & 0xff, errno >> 8]), Buffer.from(message)]);
  return Buffer.concat([Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, payload.length >> 16, 0]), payload]);
}

beforeAll(async () => {
  [strict, allowed, shlink] = await Promise.all([
    startServer(),
    startServer({ args: ["--import-allow-private"] }),
    startShlink({ hostname: "127.0.0.1", apiKey: "shlink-key", shortUrls: [shlinkShortUrl({ shortCode: "reached", longUrl: "https://example.com/reached" })] }),
  ]);
  strictKey = makeKey(strict.dbPath, "admin");
  allowedKey = makeKey(allowed.dbPath, "admin");
  tattler = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      tattled.push(path);
      // The version check is told nothing; the list of short URLs gets a page that is not JSON, the key a refusal.
      if (path === "/rest/health") return new Response(`${SECRET} health`, { status: 503 });
      if (request.headers.get("x-api-key") !== "good") return Response.json({ title: "Invalid API key", detail: `${SECRET} 401` }, { status: 401 });
      return new Response(`<html>${SECRET} 200</html>`, { status: 200, headers: { "Content-Type": "text/html" } });
    },
  });
  mysql = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket: Socket<undefined>) {
        mysqlConnections++;
        socket.end(mysqlError(1130, `Host '${SECRET}' is not allowed to connect to this MariaDB server`));
      },
      data() {},
    },
  });
}, 60_000);

afterAll(async () => {
  tattler?.stop(true);
  mysql?.stop(true);
  await shlink?.close();
  await Promise.all([strict?.dispose(), allowed?.dispose()]);
});

const shlinkAt = (url: string, apiKey = "shlink-key") => ({ from: "shlink", url, apiKey });
const yourlsAt = (host: string) => ({ from: "yourls", sourceDb: `mysql://reader:pw@${host}:${mysql.port}/yourls` });

describe("without --import-allow-private", () => {
  test("a written loopback or link-local address is refused when the import is posted: 400 url_private naming the field and the flag", async () => {
    const port = new URL(shlink.url).port;
    for (const [body, field] of [
      [shlinkAt(shlink.url), "url"],
      [shlinkAt(`http://[::ffff:127.0.0.1]:${port}`), "url"],
      [shlinkAt("http://169.254.169.254/latest/meta-data"), "url"],
      [{ from: "kutt", url: "http://169.254.169.254", apiKey: "k" }, "url"],
      [{ from: "bitly", url: `http://127.0.0.1:${port}`, token: "t" }, "url"],
      [yourlsAt("127.0.0.1"), "sourceDb"],
      [{ from: "yourls", sourceDb: `mysql://reader@db.example/yourls?socket=/run/mysqld/mysqld.sock` }, "sourceDb"],
    ] as const) {
      const r = await api(strict.url, strictKey, "POST", "/api/imports", body);
      expect({ body, status: r.status, code: r.body.code, field: r.body.field }).toEqual({ body, status: 400, code: "url_private", field });
      expect(r.body.error).toContain("--import-allow-private");
    }
    expect(shlink.requests).toEqual([]);
    expect(mysqlConnections).toBe(0);
  });

  test("a name that resolves to loopback (localhost) is refused when the job runs: it stops with a line that says why, and nothing connects", async () => {
    const { started, job } = await importedThroughApi(strict.url, strictKey, shlinkAt(`http://localhost:${new URL(shlink.url).port}`));
    expect(started.status).toBe(202);
    expect(job.state).toBe("stopped");
    expect(job.lines.join("\n")).toContain("localhost resolves to 127.0.0.1, a loopback address (RFC 1122); reached only with --import-allow-private");
    const db = await importedThroughApi(strict.url, strictKey, yourlsAt("localhost"));
    expect(db.job.state).toBe("stopped");
    expect(db.job.lines.join("\n")).toContain("localhost resolves to 127.0.0.1");
    expect(shlink.requests).toEqual([]);
    expect(mysqlConnections).toBe(0);
    expect((await api(strict.url, strictKey, "GET", "/api/links/reached")).status).toBe(404);
  });
});

describe("with --import-allow-private", () => {
  test("the dashboard's import reaches the Shlink on 127.0.0.1, written as an address and as localhost", async () => {
    const first = await importedThroughApi(allowed.url, allowedKey, shlinkAt(shlink.url));
    expect([first.started.status, first.job.state]).toEqual([202, "done"]);
    expect(first.job.summary).toMatchObject({ linksRead: 1, created: 1 });
    expect((await api(allowed.url, allowedKey, "GET", "/api/links/reached")).body.data).toMatchObject({ originalUrl: "https://example.com/reached" });
    // By its name it is another import, whose code the first one took: skipped.
    const byName = await importedThroughApi(allowed.url, allowedKey, { ...shlinkAt(`http://localhost:${new URL(shlink.url).port}`), onConflict: "skip" });
    expect([byName.job.state, byName.job.summary.linksRead]).toEqual(["done", 1]);
    expect(shlink.requests.length).toBeGreaterThan(0);
  });

  test("what a failing target answers never comes back: not an error body, not a page that is not JSON, not a MySQL server's message", async () => {
    const refused = await importedThroughApi(allowed.url, allowedKey, shlinkAt(`http://127.0.0.1:${tattler.port}`, "bad"));
    expect(refused.job.state).toBe("stopped");
    expect(refused.job.lines.join("\n")).toContain(`Shlink answered 401 to GET /rest/v3/short-urls`);
    const notJson = await importedThroughApi(allowed.url, allowedKey, shlinkAt(`http://127.0.0.1:${tattler.port}`, "good"));
    expect(notJson.job.lines.join("\n")).toContain("not JSON");
    const database = await importedThroughApi(allowed.url, allowedKey, yourlsAt("127.0.0.1"));
    expect(database.job.state).toBe("stopped");
    expect(mysqlConnections).toBeGreaterThan(0);
    expect(tattled).toContain("/rest/v3/short-urls");
    for (const { job } of [refused, notJson, database]) expect(JSON.stringify(job)).not.toContain(SECRET);
    expect(allowed.output()).not.toContain(SECRET);
  });
});

test("the command-line importer, run on the host, reaches 127.0.0.1 without any flag, and quotes no error body either", async () => {
  const run = async (apiKey: string, ...args: string[]) => {
    const proc = Bun.spawn([...serverCommand(), "import", "--db", strict.dbPath, "--from", "shlink", ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "", SHLINK_API_KEY: apiKey } });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { out, err, code };
  };
  const before = shlink.requests.length;
  const r = await run("shlink-key", "--url", shlink.url);
  expect([r.code, r.out.split("\n")[0]]).toEqual([0, "shlink: 1 links read; 1 created, 0 imported before, 0 skipped, 0 renamed."]);
  expect(shlink.requests.length).toBeGreaterThan(before);
  const told = await run("bad", "--url", `http://127.0.0.1:${tattler.port}`);
  expect(told.code).toBe(1);
  expect(told.out).toMatch(/Shlink answered 401 to GET \/rest\/v3\/short-urls\?\S+ \(is the API key right\?\)/);
  expect(told.out + told.err).not.toContain(SECRET);
});
