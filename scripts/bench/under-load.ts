// "Clicks under load": the click mix, once alone and then while other clients keep the rest of the
// service busy: two connections looping on /api/stats of a link that received 200,000 distinct UTM
// values and referrers, the owner's list (a common search and a tag, one connection each), and
// imports of 10,000 rows one after another; an export of every visit (CSV, read to its end) again
// and again; the aggregate views (a tag's and a domain's statistics, a comparison of two tags) in a
// loop. What matters is the clicks' p99 against the quiet one (issue #41: exports and aggregate
// views never push it past 2x).

import { runWrk, requestsPerSecond, type WrkResult } from "./wrk.ts";
import { createLinks } from "./clicks-api.ts";

export type LoadScenario = { name: string; clicks: WrkResult; background: string };
export type UnderLoad = { distinctValues: number; scenarios: LoadScenario[] };

type Options = { wrk: string; url: string; ids: string[]; ownerKey: string; seconds: number; log: (line: string) => void; onRun: (r: WrkResult) => void };

const DISTINCT = 200_000;
const IMPORT_ROWS = 10_000;

export async function clicksUnderLoad(o: Options): Promise<UnderLoad> {
  const [flooded] = await createLinks(o.url, 1, "flooded");
  let distinct = 0;
  while (distinct < DISTINCT) {
    const r = await runWrk(o.wrk, { url: o.url, seconds: 2, connections: 20, mode: "distinct", ids: [flooded!] });
    distinct += r.requests;
  }
  o.log(`  ${distinct.toLocaleString("en")} clicks with distinct UTM values and referrers on ${flooded}`);
  const clicks = async () => {
    const r = await runWrk(o.wrk, { url: o.url, seconds: o.seconds, connections: 50, mode: "clicks", ids: o.ids });
    o.onRun(r);
    return r;
  };
  const auth = [`Authorization: Bearer ${o.ownerKey}`];
  const scenarios: LoadScenario[] = [];

  scenarios.push({ name: "quiet", clicks: await clicks(), background: "" });

  const [withStats, stats] = await Promise.all([clicks(), runWrk(o.wrk, { url: `${o.url}/api/stats?id=${flooded}`, seconds: o.seconds, connections: 2, mode: "plain" })]);
  scenarios.push({ name: "stats loop", clicks: withStats, background: `/api/stats ${Math.round(requestsPerSecond(stats))}/s, p50 ${(stats.latencyUs.p50 / 1000).toFixed(2)} ms, non-2xx ${stats.errors.status}` });

  const [withList, search, tag] = await Promise.all([
    clicks(),
    runWrk(o.wrk, { url: `${o.url}/api/links?limit=50&q=site7`, seconds: o.seconds, connections: 1, mode: "plain", headers: auth }),
    runWrk(o.wrk, { url: `${o.url}/api/links?limit=50&tag=tenth`, seconds: o.seconds, connections: 1, mode: "plain", headers: auth }),
  ]);
  scenarios.push({ name: "list loop", clicks: withList, background: `search ${Math.round(requestsPerSecond(search))}/s, tag ${Math.round(requestsPerSecond(tag))}/s` });

  let imports = 0;
  let importFailures = 0;
  let stop = false;
  const importer = (async () => {
    for (let n = 0; !stop; n++) {
      const csv = ["url", ...Array.from({ length: IMPORT_ROWS }, (_, i) => `https://example.org/imported/${n}/${i}`)].join("\n");
      const res = await fetch(`${o.url}/api/links/import`, { method: "POST", body: csv, headers: { "content-type": "text/csv", authorization: `Bearer ${o.ownerKey}` } });
      await res.text();
      if (res.status === 200) imports++;
      else importFailures++;
    }
  })();
  const withImport = await clicks();
  stop = true;
  await importer;
  scenarios.push({ name: "import loop", clicks: withImport, background: `${imports} imports of ${IMPORT_ROWS.toLocaleString("en")} rows finished (${importFailures} failed)` });
  scenarios.push(await whileLooping("export loop", clicks, () => download(`${o.url}/api/visits/export?format=csv`, auth[0]!)));
  // The domain route without ?domain= is the domain asked (the bench's has no name of its own: no --base-url).
  const aggregates = ["/api/stats/tag?tag=tenth", "/api/stats/domain", `/api/stats/compare?ids=${o.ids.slice(0, 2).join(",")}`];
  let next = 0;
  scenarios.push(await whileLooping("aggregate loop", clicks, () => download(`${o.url}${aggregates[next++ % aggregates.length]}`, auth[0]!)));
  return { distinctValues: distinct, scenarios };
}

/** Reads a response to its end; answers its byte count, or throws on a status other than 200. */
async function download(url: string, authorization: string): Promise<number> {
  const res = await fetch(url, { headers: { authorization: authorization.slice("Authorization: ".length) } });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return bytes;
}

/** The click mix while `work` runs one call after another on one connection. */
async function whileLooping(name: string, clicks: () => Promise<WrkResult>, work: () => Promise<number>): Promise<LoadScenario> {
  let stop = false;
  let calls = 0;
  let bytes = 0;
  let failure: unknown = null;
  const loop = (async () => {
    while (!stop) {
      bytes += await work();
      calls++;
    }
  })().catch((e: unknown) => void (failure = e)); // said after the clicks' run, not as an unhandled rejection
  const measured = await clicks();
  stop = true;
  await loop;
  if (failure !== null) throw failure;
  return { name, clicks: measured, background: `${calls} calls finished, ${(bytes / 1e6).toFixed(1)} MB read` };
}
