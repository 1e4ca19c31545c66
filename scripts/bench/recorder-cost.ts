// The recorder thread's work per click, measured alone on one thread: the bench's click mix (the
// agents, referrers, UTM queries and 2,000 forwarded addresses of load.lua, on 20 links) packed as
// the click thread hands clicks over, then parsed, turned into visits and written to a real SQLite
// file in batches, exactly as src/threads/recorder/entry.ts does. Prints µs per click.
//   bun scripts/bench/recorder-cost.ts [clicks=400000] [--visitors new]
// --visitors new: every click from an address never sent before (load.lua's clicks-new), instead
// of the 2,000 repeating ones.

import { createEventWants } from "../../src/events/wants.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClickPacker, type Click } from "../../src/visits/click.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { createLinkStore, localClickBudget } from "../../src/links/store.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { openSqliteRecorder } from "../../src/db/sqlite/recorder.ts";
import { createRecordingPipeline } from "../../src/visits/recording.ts";

const total = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 400_000);
const allNew = process.argv.includes("--visitors") && process.argv[process.argv.indexOf("--visitors") + 1] === "new";
const lua = readFileSync(join(import.meta.dir, "load.lua"), "utf8");
const listOf = (name: string) => [...lua.slice(lua.indexOf(`local ${name} = {`)).split("\n}")[0]!.matchAll(/"([^"]*)"|false/g)].map((m) => m[1] ?? null);
const agents = listOf("agents") as string[];
const referers = listOf("referers");
const queries = listOf("queries") as string[];
const octets = [2, 5, 8, 24, 31, 41, 46, 62, 77, 81, 89, 101, 103, 110, 118, 133, 151, 175, 177, 185, 190, 196, 200, 213];
let seed = 42;
const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
const addresses = Array.from({ length: 2000 }, () => `${octets[random(octets.length)]}.${random(256)}.${random(256)}.${1 + random(254)}`);
// As load.lua numbers them: the n-th new address of a run.
const numbered = (n: number) => `${octets[n % octets.length]}.${Math.floor(n / octets.length) % 256}.${Math.floor(n / octets.length / 256) % 256}.${(Math.floor(n / octets.length / 65536) % 254) + 1}`;
const addressOf = (sent: number) => (allNew ? numbered(sent) : addresses[random(addresses.length)]!);

const dir = mkdtempSync(join(tmpdir(), "shortener-recorder-cost-"));
try {
  const path = join(dir, "s.db");
  const db = openDatabase(path);
  const links = createLinkStore(sqliteLinks(db), localClickBudget());
  const made: { seq: number; id: string }[] = [];
  for (let i = 0; i < 20; i++) made.push(await links.create({ url: `https://example.com/bench/${i}?from=bench` }, Date.now()));
  const storage = openSqliteRecorder(path, { info() {}, error() {} }, createEventWants());
  const pipeline = await createRecordingPipeline({ storage, trustProxy: "127.0.0.1", geoipDb: null, log: { info() {}, error() {} }, flushIntervalMs: 3_600_000, maxQueued: 1_000_000, batchSize: 1_000_000 });
  // Hand-overs of 375 clicks (5 ms at 75,000 clicks/s), each one JSON string as the click thread sends them.
  const handovers: string[] = [];
  const now = Date.now();
  const packer = createClickPacker();
  for (let sent = 0; sent < total; ) {
    for (let i = 0; i < 375 && sent < total; i++, sent++) {
      const link = made[random(made.length)]!;
      const query = queries[random(queries.length)]!;
      const destination = `https://example.com/bench/x?from=bench${query ? `&${query.slice(1)}` : ""}`;
      const click: Click = { linkSeq: link.seq, linkId: link.id, ts: now + sent / 75, userAgent: agents[random(agents.length)]!, referer: referers[random(referers.length)] ?? null, peer: "127.0.0.1", forwardedFor: addressOf(sent), forwarded: null, destination: destination.includes("utm_") ? destination : null };
      packer.add(click);
    }
    handovers.push(packer.take()!.message);
  }
  // The first hand-over is not timed: it reads the day's salt and builds the country table, which a
  // running service did long before (once each).
  pipeline.receive(handovers.shift()!);
  await pipeline.drain();
  const timed = total - 375;
  // The writer flushes every 100 ms in the service: 20 hand-overs, 7,500 clicks at 75,000 a second.
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  handovers.forEach((message, i) => {
    pipeline.receive(message);
    if (i % Number(process.env.EVERY ?? 20) === Number(process.env.EVERY ?? 20) - 1) void pipeline.flush();
  });
  await pipeline.drain();
  const cpu = process.cpuUsage(cpuBefore);
  const ms = performance.now() - started;
  const written = (db.query("SELECT SUM(total_clicks) AS n FROM links").get() as { n: number }).n;
  console.log(`${timed.toLocaleString("en")} clicks timed: ${((ms * 1000) / timed).toFixed(3)} µs a click (wall), ${((cpu.user + cpu.system) / timed).toFixed(3)} µs CPU; written ${written.toLocaleString("en")} (the first hand-over's too)`);
  await pipeline.close();
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
