// The product as a user runs it: one file in an empty folder, `./shortener --port N`, no flags for
// the database, the UI and country lookup served from inside the executable.
// With SHORTENER_BIN this is the compiled binary; otherwise `bun src/main.ts` stands in for it.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import jsQR from "jsqr";
import { REPO_ROOT, serverCommand } from "../support/server.ts";
import { startListening, type Served } from "../../scripts/lib/processes.ts";
import { click, UA, waitForClicks } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

// pngjs ships no types; the test reads the one call it makes (the executable carries its own copy).
type DecodedPng = { width: number; height: number; data: Uint8Array };
const { PNG } = createRequire(import.meta.url)("pngjs") as { PNG: { sync: { read(png: Buffer): DecodedPng } } };

// The compiled binary must not reach back into the build tree (a worker or asset loaded from the
// source path would work on the build machine and fail everywhere else): as root, run it in a
// mount namespace where the repository is an empty tmpfs.
function hideRepository(): string[] {
  if (!process.env.SHORTENER_BIN || process.getuid?.() !== 0 || !Bun.which("unshare")) return [];
  return ["unshare", "--mount", "--", "sh", "-c", `mount -t tmpfs tmpfs '${REPO_ROOT}' && exec "$0" "$@"`];
}

test.skipIf(!process.env.SHORTENER_BIN || process.getuid?.() !== 0)("the binary runs with the repository hidden", () => {
  expect(hideRepository().length).toBeGreaterThan(0);
  expect(service.output()).toMatch(/^listening on /m);
});

let folder: string;
let service: Served;
let base = "";

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "shortener-empty-"));
  // A stray .env or bunfig.toml in the working folder must not change the service (a compiled Bun
  // binary reads both unless built not to).
  // (`bun src/main.ts` reads both by design, so only the binary gets them.)
  if (process.env.SHORTENER_BIN) {
    writeFileSync(join(folder, ".env"), "SHORTENER_BASE_URL=https://evil.example\n");
    writeFileSync(join(folder, "bunfig.toml"), "preload = [\"./evil.ts\"]\n");
  }
  service = await startListening("shortener", [...hideRepository(), ...serverCommand(), "--port", "0", "--host", "127.0.0.1", "--trust-proxy", "127.0.0.1"], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? "" },
  });
  base = service.url;
});

afterAll(() => {
  service.proc.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

test("start-up says version, address, database, GeoIP source with build date, base URL", () => {
  // The same line as --version (with the build stamp in a binary): tests and operators key on "shortener X.Y.Z".
  const version = Bun.spawnSync([...serverCommand(), "--version"], { cwd: folder, env: { PATH: process.env.PATH ?? "" } }).stdout.toString().trim();
  expect(version).toMatch(/^shortener \d+\.\d+\.\d+ \(.+\)$/);
  expect(service.output().split("\n")).toContain(version);
  expect(service.output()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
  // By its absolute path: whoever reads the log may be in another folder (docs/configuration.md: Which database a command uses).
  expect(service.output().split("\n")).toContain(`database ${join(folder, "shortener.db")}`);
  expect(service.output()).toMatch(/^geoip embedded GeoLite2 Country, built \d{4}-\d{2}-\d{2}$/m);
  expect(service.output()).toMatch(/^base url /m);
});

test("the database is created in the working folder, and nothing else is needed beside the binary", () => {
  expect(existsSync(join(folder, "shortener.db"))).toBe(true);
  const planted = process.env.SHORTENER_BIN ? [".env", "bunfig.toml"] : [];
  expect(readdirSync(folder).filter((f) => !f.startsWith("shortener.db")).sort()).toEqual(planted);
});

test("create, click with a country from a trusted X-Forwarded-For, read stats", async () => {
  const form = new FormData();
  form.append("url", "https://example.com/standalone");
  form.append("custom_url", "standalone");
  expect((await fetch(`${base}/api/create`, { method: "POST", body: form })).status).toBe(201);
  const res = await click(base, "standalone", { "user-agent": UA.firefoxLinux, "x-forwarded-for": "8.8.8.8" });
  expect(res.status).toBe(302);
  const body = await waitForClicks(base, "standalone", 1);
  expect(body.data.stats.countryStats).toEqual([{ name: "US", count: 1 }]);
});

test.skipIf(!process.env.SHORTENER_BIN)("the binary ignores .env and bunfig.toml in its working folder", async () => {
  expect(service.output()).toMatch(/^base url \(from each request's Host header\)$/m);
  const form = new FormData();
  form.append("url", "https://example.com/env");
  const res = await fetch(`${base}/api/create`, { method: "POST", body: form });
  expect((await res.json()).data.shortUrl.startsWith(base)).toBe(true);
});

test("the UI and its assets come out of the executable", async () => {
  const home = await fetch(`${base}/`);
  expect(home.status).toBe(200);
  const html = await home.text();
  expect(home.headers.get("content-type")).toContain("text/html");
  const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThanOrEqual(2);
  for (const asset of assets) {
    const res = await fetch(`${base}${asset}`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }
  const stats = await fetch(`${base}/en/stats/standalone`);
  expect(stats.status).toBe(200);
});

test("the owner's way in: `key create` in the same folder (default database) while it runs, then manage a link", async () => {
  const made = Bun.spawnSync([...hideRepository(), ...serverCommand(), "key", "create", "owner"], { cwd: folder, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  expect(made.exitCode).toBe(0);
  const key = made.stdout.toString().trim();
  expect(key).toMatch(/^sk_[0-9A-Za-z]{32}$/);
  const auth = { authorization: `Bearer ${key}` };
  const list = await (await fetch(`${base}/api/links`, { headers: auth })).json();
  expect(list.data.links.map((l: { id: string }) => l.id)).toContain("standalone");
  const patched = await fetch(`${base}/api/links/standalone`, { method: "PATCH", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ disabled: true }) });
  expect(patched.status).toBe(200);
  const gone = await fetch(`${base}/standalone`, { redirect: "manual", headers: { "accept-language": "ja" } });
  expect(gone.status).toBe(410);
  expect(await gone.text()).toContain("このリンクは無効になっています");
  expect((await fetch(`${base}/api/links/standalone`, { method: "DELETE", headers: auth })).status).toBe(200);
  expect((await fetch(`${base}/standalone`, { redirect: "manual" })).status).toBe(410);
});

test("the delivery thread and the live view run from inside the executable: a webhook's delivery is attempted, a click reaches a live stream", async () => {
  const made = Bun.spawnSync([...hideRepository(), ...serverCommand(), "key", "create", "hooks"], { cwd: folder, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  const auth = { authorization: `Bearer ${made.stdout.toString().trim()}`, "content-type": "application/json" };
  // .invalid never resolves (RFC 6761): the attempt fails, and the log says it was made.
  const hook = await fetch(`${base}/api/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ url: "https://hooks.invalid/x", events: ["link.created"] }) });
  expect(hook.status).toBe(201);
  const id = (await hook.json()).data.id;
  expect((await fetch(`${base}/api/create`, { method: "POST", headers: auth, body: JSON.stringify({ url: "https://example.com/hooked", custom_url: "hooked" }) })).status).toBe(201);
  const deliveries = async (): Promise<any> => await (await fetch(`${base}/api/webhooks/${id}/deliveries`, { headers: auth })).json();
  const log = await eventually(deliveries, (l) => l.data.deliveries[0]?.attempts > 0, 10_000);
  expect(log.data.deliveries[0]).toMatchObject({ type: "link.created", attempts: 1, state: "pending", error: expect.stringContaining("hooks.invalid") });

  const abort = new AbortController();
  const stream = await fetch(`${base}/api/stats/live?id=hooked`, { signal: abort.signal });
  const reader = stream.body!.getReader();
  let text = new TextDecoder().decode((await reader.read()).value);
  expect(text).toStartWith("event: ready");
  await click(base, "/hooked", { "user-agent": UA.firefoxLinux });
  while (!text.includes("event: visit")) text += new TextDecoder().decode((await reader.read()).value);
  expect(text).toContain('"browser":"Firefox"');
  abort.abort();
}, 30_000);

test("share-ready links from inside the executable: GET /<alias>/qr is a PNG of the short URL (qrcode and pngjs bundled), and a preview agent gets the card page", async () => {
  // The card through the API's JSON fields (docs/sharing.md: Examples).
  const link = { url: "https://example.com/launch", custom_url: "launch", cardTitle: "Launch week", cardDescription: "Five new features" };
  const created = await fetch(`${base}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(link) });
  expect(created.status).toBe(201);

  const qr = await fetch(`${base}/launch/qr`);
  expect(qr.status).toBe(200);
  expect(qr.headers.get("content-type")).toBe("image/png");
  const png = PNG.sync.read(Buffer.from(await qr.arrayBuffer()));
  expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(`${base}/launch`);

  const card = await click(base, "launch", { "user-agent": UA.slack });
  expect(card.status).toBe(200);
  expect(card.headers.get("content-type")).toContain("text/html");
  const ogTitle = (await card.text()).match(/<meta\b[^>]*\bproperty=["']og:title["'][^>]*>/)?.[0];
  expect(ogTitle).toContain("Launch week");
  // People still get the redirect.
  expect((await click(base, "launch", { "user-agent": UA.firefoxLinux })).status).toBe(302);
}, 30_000);
