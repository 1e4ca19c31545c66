// An auth proxy's identity headers read exactly, on either engine, with the bytes a proxy really
// sends (test/support/raw-http.ts: no HTTP client re-encodes them): UTF-8 names arrive as written;
// invalid UTF-8, a control, bidi or zero-width character, or a user header sent twice answers 400
// auth_header_invalid (JSON for the API, a page for a page) and never makes a user.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { openStored, type Stored } from "../support/stored.ts";
import { rawRequest } from "../support/raw-http.ts";

let server: RunningServer;
let stored: Stored;
beforeAll(async () => {
  // --stats-access key: the stats page asks who is calling too.
  server = await startServer({ args: ["--trust-proxy", "127.0.0.1", "--auth-header", "Remote-User", "--auth-admin-group", "admins", "--stats-access", "key"] });
  stored = await openStored(server);
});
afterAll(async () => {
  await stored?.close();
  await server?.dispose();
});

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
/** A request from 127.0.0.1 (the trusted proxy) with these header lines, exactly as given. */
const fromProxy = (port: number, target: string, lines: Buffer[]) => {
  const [method, path] = target.startsWith("POST ") ? ["POST", target.slice(5)] : ["GET", target];
  const body = method === "POST" ? `Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}` : "Connection: close\r\n\r\n";
  return rawRequest(port, Buffer.concat([bytes(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`), ...lines.map((l) => Buffer.concat([l, bytes("\r\n")])), bytes(body)]));
};
const header = (name: string, ...value: (string | number[])[]) => bytes(`${name}: `, ...value);
const users = async () => (await stored.all<{ name: string; email: string | null }>("SELECT name, email FROM users ORDER BY id")).map((u) => `${u.name} <${u.email}>`);

describe("UTF-8 names", () => {
  test("José and 山田 (UTF-8 bytes) sign in under their own names, stored as sent", async () => {
    const jose = await fromProxy(server.port, "/api/session", [header("Remote-User", "José"), header("Remote-Email", "josé@example.test")]);
    expect(jose.status).toBe(200);
    expect(JSON.parse(jose.body).data).toMatchObject({ signedIn: true, name: "José", via: "header", user: { name: "José", email: "josé@example.test" } });
    const yamada = await fromProxy(server.port, "/api/session", [header("Remote-User", "山田"), header("Remote-Groups", "admins")]);
    expect(JSON.parse(yamada.body).data).toMatchObject({ signedIn: true, name: "山田", scope: "admin" });
    expect(await users()).toEqual(expect.arrayContaining(["José <josé@example.test>", "山田 <null>"]));
  });
});

describe("what cannot be read exactly is refused", () => {
  const cases: [string, Buffer[]][] = [
    ["two Remote-User headers", [header("Remote-User", "root"), header("Remote-User", "mallory")]],
    ["a Remote-User holding a comma", [header("Remote-User", "Doe, John")]],
    ["invalid UTF-8 (a lone 0xFF)", [header("Remote-User", "bad", [0xff], "name")]],
    ["an overlong UTF-8 sequence", [header("Remote-User", "sl", [0xc0, 0xaf], "ash")]],
    ["a tab inside the name", [header("Remote-User", "tab", [0x09], "bed")]],
    ["DEL", [header("Remote-User", "del", [0x7f])]],
    ["a C1 control (U+0085, as UTF-8)", [header("Remote-User", "next", [0xc2, 0x85], "line")]],
    ["a bidi override (U+202E)", [header("Remote-User", "ev\u202elina")]],
    ["a zero-width space (U+200B)", [header("Remote-User", "zero\u200bwidth")]],
    ["a good user with two Remote-Email headers", [header("Remote-User", "eve"), header("Remote-Email", "eve@example.test"), header("Remote-Email", "boss@example.test")]],
    ["a good user with a bidi control in Remote-Groups", [header("Remote-User", "gus"), header("Remote-Groups", "staff\u202e")]],
  ];
  for (const [what, lines] of cases) {
    test(`${what}: 400 auth_header_invalid on the API, and no user`, async () => {
      const before = await users();
      for (const path of ["/api/session", "/api/links", "/api/overview", "POST /api/create"]) {
        const r = await fromProxy(server.port, path, lines);
        expect(r.status).toBe(400);
        expect(r.headers["content-type"]).toContain("application/json");
        expect(JSON.parse(r.body)).toMatchObject({ success: false, code: "auth_header_invalid" });
      }
      expect(await users()).toEqual(before);
    });
  }

  test("a stats page that asks who is calling answers with a page (400), in the visitor's language", async () => {
    const before = await users();
    const r = await fromProxy(server.port, "/de/stats/abcdefg", [header("Remote-User", "root"), header("Remote-User", "mallory")]);
    expect(r.status).toBe(400);
    expect(r.headers["content-type"]).toContain("text/html");
    expect(r.body).toContain("Anmeldung fehlgeschlagen");
    expect(r.body).toContain("Anmelde-Proxy");
    expect(await users()).toEqual(before);
  });
});

describe("--auth-header tailscale", () => {
  let tailnet: RunningServer;
  let tailStored: Stored;
  beforeAll(async () => {
    tailnet = await startServer({ args: ["--auth-header", "tailscale"] });
    tailStored = await openStored(tailnet);
  });
  afterAll(async () => {
    await tailStored?.close();
    await tailnet?.dispose();
  });

  test("a UTF-8 login signs in as written; two logins, or invalid UTF-8, are 400 and make no user", async () => {
    const r = await fromProxy(tailnet.port, "/api/session", [header("Tailscale-User-Login", "zoë@example.test")]);
    expect(JSON.parse(r.body).data).toMatchObject({ signedIn: true, name: "zoë@example.test" });
    for (const lines of [[header("Tailscale-User-Login", "ann@example.test"), header("Tailscale-User-Login", "ben@example.test")], [header("Tailscale-User-Login", [0xe9], "@example.test")]]) {
      const refused = await fromProxy(tailnet.port, "/api/session", lines);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).code).toBe("auth_header_invalid");
    }
    expect((await tailStored.all<{ name: string }>("SELECT name FROM users")).map((u) => u.name)).toEqual(["zoë@example.test"]);
  });
});
