// The linux-arm64 release executable, run for real: under qemu user emulation on an x86-64 machine
// (directly on an arm64 one). Start-up (the recorder Worker and its thread priority through libc
// included), a link created, its redirect followed, the click counted, SIGTERM → exit 0.
// CI points SHORTENER_ARM64_BIN at dist/release/shortener-<version>-linux-arm64 after
// `npm run release`; without it, everything here is skipped.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startListening, type Served } from "../../scripts/lib/processes.ts";
import { stats, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { ARM64_RUN, VERSION_LINE } from "../support/release.ts";

const BIN = process.env.SHORTENER_ARM64_BIN;
// Emulation makes everything several times slower; these are limits, not expectations.
const SLOW = 60_000;

// One skip line that says why, rather than every test and hook skipped one by one.
if (!BIN) test.skip("linux-arm64 release binary under qemu: SHORTENER_ARM64_BIN is not set (CI sets it after npm run release)", () => {});
else describe("linux-arm64 release binary under qemu", () => {
  let folder: string;
  let service: Served;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "shortener-arm64-"));
    // "listening on" is the last start-up line: every other one is out by the time it returns.
    service = await startListening("shortener linux-arm64", [...ARM64_RUN, BIN, "--port", "0", "--host", "127.0.0.1"], { cwd: folder, env: { PATH: process.env.PATH ?? "" } });
  }, SLOW);

  afterAll(() => {
    if (service?.proc.exitCode === null) service.proc.kill("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  });

  test("it is an arm64 executable, and --version names the version, commit and build date", async () => {
    expect(Buffer.from(await Bun.file(BIN).slice(18, 20).bytes())).toEqual(Buffer.from([183, 0])); // e_machine EM_AARCH64
    const run = Bun.spawnSync([...ARM64_RUN, BIN, "--version"], { cwd: folder, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString().trim()).toMatch(new RegExp(`^${VERSION_LINE}$`));
  }, SLOW);

  test("start-up prints its lines and nothing else: no warning, no fallback error from the recorder thread", () => {
    const lines = service.output().trim().split("\n");
    const expected = [
      /^shortener \d+\.\d+\.\d+ \(.+\)$/,
      /^database \/.+\/shortener\.db$/,
      /^geoip embedded GeoLite2 Country, built \d{4}-\d{2}-\d{2}$/,
      /^base url /,
      /^create access public, stats access public$/,
      // Low where the thread could be lowered (SCHED_IDLE through libc, or nice 19), normal where not.
      /^recorder thread at (low|normal) CPU priority /,
      /^listening on http:\/\/127\.0\.0\.1:\d+$/,
    ];
    // A new instance's last line, the next step, may still be on its way.
    if (lines.length > expected.length) expected.push(/^next: shortener key create NAME --db \/.+\/shortener\.db, then open http:\/\/127\.0\.0\.1:\d+\/links and paste the key$/);
    expect(lines).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(lines[i]).toMatch(pattern));
  });

  test("create a link, follow its redirect, see the click counted", async () => {
    const form = new FormData();
    form.append("url", "https://example.com/arm64");
    const created = await fetch(`${service.url}/api/create`, { method: "POST", body: form });
    expect(created.status).toBe(201);
    const shortUrl: string = (await created.json()).data.shortUrl;
    const id = new URL(shortUrl).pathname.slice(1);
    expect(id.length).toBeGreaterThan(0);

    const redirect = await fetch(`${service.url}/${id}`, { redirect: "manual", headers: { "user-agent": UA.firefoxLinux } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("https://example.com/arm64");

    const counted = await eventually(() => stats(service.url, `id=${id}`), (body) => body.data?.stats.totalClicks >= 1, SLOW / 2, 50);
    expect(counted.data.stats).toMatchObject({ totalClicks: 1, humanClicks: 1, browserStats: [{ name: "Firefox", count: 1 }] });
  }, SLOW);

  test("SIGTERM: stops cleanly with exit code 0", async () => {
    expect(await service.stop()).toBe(0);
    expect(service.output()).toMatch(/^SIGTERM: stopping$/m);
    expect(service.output()).toMatch(/^stopped visitsWritten=\d+ visitsDropped=0$/m);
  }, SLOW);
});
