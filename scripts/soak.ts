// Soak test: a steady mix of creates, clicks and stats against the real service for N minutes.
// Reports errors (must be 0), RSS every 10 s from /proc/<pid>/status (must stay flat after warm-up)
// and the database size against the data it holds. Not part of `npm test`: it takes minutes.
//
//   bun scripts/soak.ts [--minutes 10] [--rate 100] [--bin ./shortener]
//
// --bin defaults to $SHORTENER_BIN, else ./shortener (npm run build). --rate is requests per second
// (≈ 10% creates, 80% clicks, 10% stats). Exits 1 when a request failed or RSS kept growing.

import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { memoryMiB, startListening } from "./lib/processes.ts";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, rate: { type: "string", default: "100" }, bin: { type: "string" } },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const bin = resolve(values.bin ?? process.env.SHORTENER_BIN ?? "shortener");
if (!(minutes > 0) || !(rate > 0)) throw new Error("--minutes and --rate must be positive numbers");
if (!existsSync(bin)) throw new Error(`no binary at ${bin}: run npm run build, or pass --bin / SHORTENER_BIN`);

const SAMPLE_MS = 10_000;
const UAS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
];
const REFERERS = ["", "https://www.google.com/", "https://news.ycombinator.com/item?id=1", "https://t.co/abc"];

// --- start the service ------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), "shortener-soak-"));
const dbPath = join(dir, "shortener.db");
const service = await startListening("shortener", [bin, "--port", "0", "--host", "127.0.0.1", "--db", dbPath, "--create-rate-limit", "0"], { cwd: dir });
const { proc } = service;
const base = service.url;
console.log(`soak: ${bin} pid ${proc.pid}, ${minutes} min at ${rate} req/s, db ${dbPath}`);

// --- the load ---------------------------------------------------------------------------------
const ids: string[] = [];
const counts = { create: 0, click: 0, stats: 0, errors: 0 };
const errors: string[] = [];
const fail = (what: string) => {
  counts.errors++;
  if (errors.length < 20) errors.push(what);
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

async function one(n: number): Promise<void> {
  try {
    if (ids.length < 10 || n % 10 === 0) {
      const res = await fetch(`${base}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `https://example.com/soak/${n}?x=${Math.random()}` }) });
      const body = (await res.json()) as { data?: { shortUrl: string } };
      if (res.status !== 201) return fail(`create ${res.status}`);
      ids.push(body.data!.shortUrl.split("/").pop()!);
      counts.create++;
    } else if (n % 10 === 1) {
      const res = await fetch(`${base}/api/stats?id=${pick(ids)}`);
      await res.arrayBuffer();
      if (res.status !== 200) return fail(`stats ${res.status}`);
      counts.stats++;
    } else {
      // Clicks favour recent links (as real traffic does) but reach old ones too.
      const id = Math.random() < 0.8 ? ids[ids.length - 1 - Math.floor(Math.random() * Math.min(ids.length, 50))]! : pick(ids);
      const referer = pick(REFERERS);
      const res = await fetch(`${base}/${id}${Math.random() < 0.3 ? "?utm_source=soak&utm_campaign=c" + (n % 7) : ""}`, {
        redirect: "manual",
        headers: { "user-agent": pick(UAS), ...(referer ? { referer } : {}) },
      });
      await res.arrayBuffer();
      if (res.status !== 302) return fail(`click ${res.status}`);
      counts.click++;
    }
  } catch (err) {
    fail(`network: ${err instanceof Error ? err.message : String(err)}`);
  }
}


const fileBytes = () => [dbPath, `${dbPath}-wal`].reduce((a, p) => a + (existsSync(p) ? statSync(p).size : 0), 0);

type Sample = { atS: number; rssMiB: number; fileMiB: number; links: number; clicks: number };
const samples: Sample[] = [];
const start = Date.now();
const sample = () => {
  const s = { atS: Math.round((Date.now() - start) / 1000), rssMiB: memoryMiB(proc.pid).rss, fileMiB: fileBytes() / 1024 / 1024, links: counts.create, clicks: counts.click };
  samples.push(s);
  console.log(`  t=${String(s.atS).padStart(4)} s  rss ${s.rssMiB.toFixed(1)} MiB  db+wal ${s.fileMiB.toFixed(2)} MiB  links ${s.links}  clicks ${s.clicks}  stats ${counts.stats}  errors ${counts.errors}`);
};
sample();

// A steady rate: one request every 1000/rate ms, scheduled against the clock so slow answers do not
// lower the rate (they overlap instead); at most 200 in flight so a stall cannot snowball.
const end = start + minutes * 60_000;
let sent = 0;
let inFlight = 0;
let nextSample = start + SAMPLE_MS;
while (Date.now() < end) {
  const due = Math.floor(((Date.now() - start) / 1000) * rate);
  while (sent < due && inFlight < 200) {
    inFlight++;
    void one(sent++).finally(() => inFlight--);
  }
  if (Date.now() >= nextSample) {
    sample();
    nextSample += SAMPLE_MS;
  }
  await Bun.sleep(5);
}
while (inFlight > 0) await Bun.sleep(10);
sample();

// --- stop and inspect ---------------------------------------------------------------------------
const code = await service.stop();
const db = new Database(dbPath, { readonly: true });
const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
const links = (db.query("SELECT COUNT(*) AS n FROM links").get() as { n: number }).n;
const visits = (db.query("SELECT COUNT(*) AS n FROM visits").get() as { n: number }).n;
db.close();
const finalBytes = fileBytes();

// RSS is "flat" when, after the first third (warm-up: caches, JIT, SQLite page cache), the last
// third's mean is within 10% (or 8 MiB) of the middle third's, i.e. no steady climb.
const third = Math.max(1, Math.floor(samples.length / 3));
const mean = (xs: Sample[]) => xs.reduce((a, s) => a + s.rssMiB, 0) / Math.max(1, xs.length);
const middle = mean(samples.slice(third, 2 * third));
const last = mean(samples.slice(2 * third));
const growth = last - middle;
const flat = growth <= Math.max(8, middle * 0.1);

console.log(`
soak result after ${minutes} min:
  requests   ${counts.create} creates, ${counts.click} clicks, ${counts.stats} stats (${((counts.create + counts.click + counts.stats) / minutes / 60).toFixed(1)} req/s), errors ${counts.errors}${errors.length ? `: ${errors.join("; ")}` : ""}
  rss        start ${samples[0]!.rssMiB.toFixed(1)} MiB, peak ${Math.max(...samples.map((s) => s.rssMiB)).toFixed(1)} MiB, middle-third mean ${middle.toFixed(1)} MiB, last-third mean ${last.toFixed(1)} MiB → ${flat ? "flat" : "GROWING"} (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB)
  database   ${links} links, ${visits} visits (answered clicks ${counts.click}); file ${(finalBytes / 1024 / 1024).toFixed(2)} MiB after shutdown = ${(finalBytes / Math.max(1, visits + links)).toFixed(0)} bytes per link or visit; integrity ${integrity}
  shutdown   exit ${code}`);
rmSync(dir, { recursive: true, force: true });
const ok = counts.errors === 0 && flat && code === 0 && integrity === "ok" && visits === counts.click && links === counts.create;
if (!ok) console.log("soak FAILED");
process.exit(ok ? 0 : 1);
