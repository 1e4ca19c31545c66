// The documented bulk path for the stats benchmark: before the binary starts, visits are recorded
// into its database file through the service's own writer (createVisitWriter, same statements,
// same rollups) from visits built by the service's own buildVisit. Faster than 1M wrk clicks, and
// what the stats endpoint then reads is exactly what real clicks would have left.

import { openDatabase } from "../../src/db/sqlite/open.ts";
import { createLinkStore, localClickBudget, type LinkStore } from "../../src/links/store.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { createSearchIndexer } from "../../src/db/sqlite/search-index.ts";
import { createVisitWriter } from "../../src/db/sqlite/visit-batches.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { buildVisit } from "../../src/visits/visitor.ts";
import { createClientClassifier } from "../../src/visits/ua.ts";
import { openCountryLookup } from "../../src/visits/geo.ts";

const DAY_MS = 86_400_000;

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.58 Mobile Safari/537.36",
  "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
];
const REFERERS = [null, null, "https://www.google.com/", "https://t.co/", "https://news.ycombinator.com/item?id=1", "https://www.reddit.com/r/x/"];
const QUERIES = ["", "", "?utm_source=newsletter&utm_medium=email&utm_campaign=launch", "?utm_source=twitter&utm_medium=social", "?utm_source=hn"];
const OCTETS = [2, 5, 8, 24, 31, 41, 46, 62, 77, 81, 89, 101, 103, 110, 118, 133, 151, 175, 177, 185, 190, 196, 200, 213];

export type SeedResult = { ids: Record<string, string>; seconds: number; visits: number; links: number };

/** Links of the owner's list benchmark: ids bulk-<n>, destinations on 1,000 hosts, a few tagged. */
export const LIST_LINKS = 100_000;
/** A term in the destination of exactly 10 of them (the search index's plan). */
export const RARE_TERM = "campaign-rare";

/**
 * Creates one link per entry of `visitsPerLink` (created `days` ago) and records that many visits
 * for each, spread evenly over the last `days` days in time order, as a live service would have.
 */
export async function seed(dbPath: string, visitsPerLink: Record<string, number>, days = 30): Promise<SeedResult> {
  const started = performance.now();
  const db = openDatabase(dbPath);
  const links = createLinkStore(sqliteLinks(db), localClickBudget());
  const writer = createVisitWriter(db, { flushIntervalMs: 60_000 });
  const now = Date.now();
  const ids = await recordVisits(links, writer.record, visitsPerLink, now, days);
  const visits = Object.values(visitsPerLink).reduce((a, b) => a + b, 0);
  writer.close();
  const { written, dropped } = writer.stats();
  // The owner's list: 100,000 links, created one a minute back from now, in one transaction.
  db.transaction(() => {
    for (let i = 0; i < LIST_LINKS; i++) {
      const link = listLink(i, now);
      links.create({ url: link.url, alias: link.id, tags: link.tags }, link.createdAt);
    }
  })();
  // As the binary's recorder thread would have by the time anyone searches them.
  const indexer = createSearchIndexer(db);
  while (indexer.indexNew() > 0);
  db.close();
  if (written !== visits || dropped !== 0) throw new Error(`seeding wrote ${written} of ${visits} visits (${dropped} dropped)`);
  return { ids, seconds: (performance.now() - started) / 1000, visits, links: LIST_LINKS };
}

/** The i-th link of the owner's list: created i minutes after the first, destinations on 1,000 hosts, every tenth tagged. */
export function listLink(i: number, now: number): { id: string; url: string; createdAt: number; tags: string[] } {
  const path = i % 10_000 === 0 ? RARE_TERM : `page/${(i * 7919) % 100_003}`;
  return { id: `bulk-${i}`, url: `https://site${i % 1000}.example/${path}?n=${i}`, createdAt: now - (LIST_LINKS - i) * 60_000, tags: i % 10 === 0 ? ["tenth"] : [] };
}

/** Creates the links of `visitsPerLink` and hands their visits (built by the service's buildVisit) to record; returns the ids. */
export async function recordVisits(
  links: Pick<LinkStore, "create">,
  record: (visit: Visit) => void,
  visitsPerLink: Record<string, number>,
  now: number,
  days: number,
  /** called every 10,000 visits: a writer that writes later (PostgreSQL's) catches up there */
  drain?: () => Promise<unknown>,
): Promise<Record<string, string>> {
  const geo = await openCountryLookup(null);
  const classify = createClientClassifier();
  let rng = 42;
  const pick = <T>(list: readonly T[]): T => {
    rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
    return list[rng % list.length]!;
  };
  // 2,000 addresses, as in load.lua; countries looked up once each.
  const countries = Array.from({ length: 2000 }, (_, i) => geo.country(`${OCTETS[i % OCTETS.length]}.${(i * 7) % 256}.${(i * 13) % 256}.${(i % 254) + 1}`));
  const ids: Record<string, string> = {};
  for (const [name, count] of Object.entries(visitsPerLink)) {
    const url = `https://example.com/${name}`;
    const link = await links.create({ url, alias: `seed-${name}-${now.toString(36)}` }, now - days * DAY_MS);
    ids[name] = link.id;
    const step = (days * DAY_MS - 60_000) / Math.max(1, count);
    for (let i = 0; i < count; i++) {
      if (drain && i % 10_000 === 9_999) await drain();
      const country = pick(countries);
      record(
        buildVisit(
          { linkSeq: link.seq, linkId: link.id, destination: url + pick(QUERIES), userAgent: pick(AGENTS), referer: pick(REFERERS), clientAddress: "seed", now: now - days * DAY_MS + 60_000 + Math.floor(i * step) },
          { classify, country: () => country },
        ),
      );
    }
  }
  return ids;
}
