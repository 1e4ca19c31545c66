// A webhook to an https receiver by name: the sender resolves the name, checks the address, and
// connects to that address with the name in Host, in SNI and in the certificate's check (so that a
// name answering otherwise the second time cannot lead the request elsewhere). The receiver has a
// certificate for localhost made here with Debian's openssl; the service trusts it through
// NODE_EXTRA_CA_CERTS, as an operator would a private CA. A trusted certificate for another name is
// refused: the name checked is the webhook's, not the address connected to.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";

let dir: string;
let server: RunningServer;
let key: string;
const got: { host: string | null; verified: boolean }[] = [];
let secret = "";
let receivers: ReturnType<typeof Bun.serve>[] = [];

function certificate(name: string): { cert: string; key: string } {
  const out = join(dir, name);
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${out}.key`, "-out", `${out}.pem`, "-days", "2", "-subj", `/CN=${name}`, "-addext", `subjectAltName=DNS:${name}`]);
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr}`);
  return { cert: `${out}.pem`, key: `${out}.key` };
}

/** A TLS receiver on every loopback address "localhost" may resolve to. */
function receiver(tls: { cert: string; key: string }): number {
  const first = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert: Bun.file(tls.cert), key: Bun.file(tls.key) }, fetch: answer });
  receivers.push(first);
  try {
    receivers.push(Bun.serve({ hostname: "::1", port: first.port, tls: { cert: Bun.file(tls.cert), key: Bun.file(tls.key) }, fetch: answer }));
  } catch {} // no IPv6 loopback here
  return first.port!;
}

async function answer(request: Request): Promise<Response> {
  const body = await request.text();
  let verified = true;
  try {
    new Webhook(secret).verify(body, Object.fromEntries(request.headers));
  } catch {
    verified = false;
  }
  got.push({ host: request.headers.get("host"), verified });
  return new Response(null, { status: 204 });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shortener-tls-"));
  // Both trusted: the second is refused for its name alone.
  const trusted = join(dir, "trusted.pem");
  await Bun.write(trusted, (await Bun.file(certificate("localhost").cert).text()) + (await Bun.file(certificate("elsewhere.example").cert).text()));
  server = await startServer({ args: ["--webhook-allow-private"], env: { NODE_EXTRA_CA_CERTS: trusted } });
  key = makeKey(server.dbPath, "admin");
});
afterAll(async () => {
  for (const r of receivers) r.stop(true);
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test("https by name: delivered to the address checked, with the name in Host and the certificate checked against it", async () => {
  const port = receiver({ cert: join(dir, "localhost.pem"), key: join(dir, "localhost.key") });
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: `https://localhost:${port}/hook`, events: ["link.created"] });
  expect(made.status).toBe(201);
  secret = made.body.data.secret;
  expect((await api(server.url, key, "POST", "/api/links/import", "url,custom_url\nhttps://example.com/tls,tls-one\n", { "content-type": "text/csv" })).status).toBe(200);
  await eventually(async () => got.length, (n) => n > 0, 15_000);
  expect(got[0]).toEqual({ host: `localhost:${port}`, verified: true });
}, 30_000);

test("a certificate for another name is refused: the delivery waits with the TLS error in its log", async () => {
  const port = receiver({ cert: join(dir, "elsewhere.example.pem"), key: join(dir, "elsewhere.example.key") });
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: `https://localhost:${port}/hook`, events: ["link.created"] });
  const before = got.length;
  expect((await api(server.url, key, "POST", "/api/links/import", "url,custom_url\nhttps://example.com/tls2,tls-two\n", { "content-type": "text/csv" })).status).toBe(200);
  const log = await eventually(
    async () => (await api(server.url, key, "GET", `/api/webhooks/${made.body.data.id}/deliveries`)).body.data.deliveries,
    (d: any[]) => d.length > 0 && d[0].attempts > 0,
    15_000,
  );
  expect(log[0]).toMatchObject({ state: "pending", attempts: 1, responseCode: null });
  expect(log[0].error).toMatch(/altname|does not match/i);
  // The first webhook (trusted certificate) got this link's event; the refused one got nothing through.
  await eventually(async () => got.length, (n) => n > before, 15_000);
  expect(got.slice(before).every((g) => g.host === got[0]!.host)).toBe(true);
}, 30_000);
