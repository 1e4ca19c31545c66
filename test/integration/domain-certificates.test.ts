// The certificate ask with a real Caddy (Debian's package) configured as docs/several-domains.md
// (Certificates for every domain) says: on_demand_tls asks /api/domains/tls before it makes a
// certificate. Caddy's own local CA issues them (local_certs), so nothing leaves this machine: a
// handshake for a domain of the service gets a certificate and reaches the link through Caddy; one
// for any other name gets none. Storage is not involved beyond the domains: SQLite and PostgreSQL alike.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { freePort } from "../support/ports.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(90_000);

// Its own loopback address, as test/support/caddy.ts's proxy has.
const CADDY_HOST = "127.0.0.5";

let server: RunningServer;
let caddy: ReturnType<typeof Bun.spawn>;
let caddyDir: string;
let httpsPort: number;

beforeAll(async () => {
  if (Bun.which("caddy") === null) throw new Error("caddy not found: install it with `apt-get update && apt-get install -y caddy`");
  server = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
  const admin = makeKey(server.dbPath, "admin");
  expect((await api(server.url, admin, "POST", "/api/domains", { name: "s.example.org" })).status).toBe(201);
  expect((await api(server.url, admin, "POST", "/api/domains", { name: "go.example.net" })).status).toBe(201);
  await madeLink(server.url, admin, "through-caddy");
  httpsPort = await freePort(CADDY_HOST);
  caddyDir = mkdtempSync(join(tmpdir(), "shortener-caddy-tls-"));
  // The documented block, with this test's ports, Caddy's local CA instead of an ACME one, and no admin endpoint.
  writeFileSync(
    join(caddyDir, "Caddyfile"),
    `{
	admin off
	local_certs
	skip_install_trust
	default_bind ${CADDY_HOST}
	http_port ${await freePort(CADDY_HOST)}
	https_port ${httpsPort}
	on_demand_tls {
		ask http://127.0.0.1:${server.port}/api/domains/tls
	}
}

https:// {
	tls {
		on_demand
	}
	reverse_proxy 127.0.0.1:${server.port}
}
`,
  );
  caddy = Bun.spawn(["caddy", "run", "--config", join(caddyDir, "Caddyfile"), "--adapter", "caddyfile"], {
    cwd: caddyDir,
    env: { PATH: process.env.PATH ?? "", HOME: caddyDir, XDG_DATA_HOME: caddyDir, XDG_CONFIG_HOME: caddyDir },
    stdout: "ignore",
    stderr: "pipe",
  });
  for (let i = 0; ; i++) {
    const up = await Bun.connect({ hostname: CADDY_HOST, port: httpsPort, socket: { data() {} } }).then((s) => (s.end(), true), () => false);
    if (up) break;
    if (i > 300 || caddy.exitCode !== null) throw new Error(`caddy did not start: ${await new Response(caddy.stderr as ReadableStream).text()}`);
    await Bun.sleep(50);
  }
}, 90_000);

afterAll(async () => {
  caddy?.kill();
  await caddy?.exited;
  if (caddyDir) rmSync(caddyDir, { recursive: true, force: true });
  await server?.dispose();
});

/** A TLS handshake with Caddy for `name` (SNI), then GET path with that Host: the status line, or the handshake's failure. */
function throughCaddy(name: string, path: string): Promise<{ ok: true; head: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: CADDY_HOST, port: httpsPort, servername: name, rejectUnauthorized: false }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${name}\r\nConnection: close\r\n\r\n`);
    });
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("end", () => resolve({ ok: true, head: text.split("\r\n\r\n")[0]! }));
    socket.on("error", (err) => resolve(text === "" ? { ok: false, error: err.message } : { ok: true, head: text.split("\r\n\r\n")[0]! }));
  });
}

test("Caddy gets a certificate for a domain of the service (and proxies its click), and none for another name", async () => {
  const click = await throughCaddy("s.example.org", "/through-caddy");
  expect(click.ok).toBe(true);
  if (click.ok) {
    expect(click.head.split("\r\n")[0]).toBe("HTTP/1.1 302 Found");
    expect(click.head.toLowerCase()).toContain("location: https://example.com/through-caddy");
  }
  // go.example.net has a certificate too; the link is not its own, so its not-found answers.
  const other = await throughCaddy("go.example.net", "/through-caddy");
  expect(other.ok && other.head.split("\r\n")[0]).toBe("HTTP/1.1 404 Not Found");
  const refused = await throughCaddy("evil.example.com", "/through-caddy");
  expect(refused.ok).toBe(false);
});
