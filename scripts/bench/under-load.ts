// "Clicks under load": the click mix, once alone and then while other clients keep the rest of the
// service busy: two connections looping on /api/stats of a link that received 200,000 distinct UTM
// values and referrers, the owner's list (a common search and a tag, one connection each), and
// imports of 10,000 rows one after another. What matters is the clicks' p99 against the quiet one.

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
  return { distinctValues: distinct, scenarios };
}
