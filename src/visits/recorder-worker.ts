// The recorder's thread: turns raw clicks into Visits (trusted-proxy rule, UA and bot
// classification, country, referrer host, UTM) and writes them with its own SQLite connection.
// In: init, {clicks: JSON}, {reloadGeo}, {close}. Out: {ready}|{failed} once, {stats} as they change, {closed}.

import { openDatabase } from "../db/open.ts";
import { createLogger } from "../log.ts";
import type { LogFormat } from "../config.ts";
import { unpackClicks, type Click } from "./click.ts";
import { Lru } from "../util/lru.ts";
import { clientAddress, parseTrustedProxies, type ForwardingHeaders } from "./client-ip.ts";
import { createCountryResolver, type CountryResolver } from "./country.ts";
import { openCountryLookup } from "./geo.ts";
import { createClientClassifier } from "./ua.ts";
import { buildVisit, cachedParsers, type VisitorDeps } from "./visitor.ts";
import { createVisitWriter, type VisitWriter, type WriterStats } from "./writer.ts";
import { currentThreadId } from "../util/thread-policy.ts";
import { recorderThreadPriority, type PriorityFlag, type RecorderThreadPriority } from "./recorder-priority.ts";
import { createSearchIndexer, SEARCH_INDEX_BATCH } from "../links/search-index.ts";
import { createVisitorIds } from "./visitor-id.ts";
import { createSeenVisitors } from "./seen-visitors.ts";
import { createForgetting } from "./forget.ts";
import { isLockBusy } from "../db/errors.ts";

export type RecorderInit = {
  dbPath: string;
  geoipDb: string | null;
  trustProxy: string;
  logFormat: LogFormat;
  flushIntervalMs: number;
  maxQueued: number;
  /** shared with the click thread: the priority it wants this thread at (recorder-priority.ts) */
  priorityFlag: PriorityFlag;
};
export type ToRecorder = { init: RecorderInit } | { clicks: string } | { reloadGeo: true } | { close: true };
/** `received`: clicks taken so far, so that the click thread can tell what is still in transit. */
export type FromRecorder =
  | { ready: { geoSource: string; geoBuildDate: string; threadId: number | null } }
  | { failed: string }
  | { stats: WriterStats; received: number; error?: string }
  | { closed: WriterStats };

declare const self: Worker;
const post = (msg: FromRecorder) => self.postMessage(msg);

let writer: VisitWriter;
let db: ReturnType<typeof openDatabase>;
let countries: CountryResolver;
let record: (flat: (string | number | null)[]) => void;
let priority: RecorderThreadPriority;
let received = 0;
let reported = "";

const report = (error?: string) => {
  const stats = writer.stats();
  const key = `${stats.written}/${stats.dropped}/${stats.discarded}/${stats.queued}/${stats.lastError}/${received}`;
  if (key === reported && !error) return;
  reported = key;
  post({ stats, received, error });
};

async function init(opts: RecorderInit): Promise<void> {
  const log = createLogger(opts.logFormat);
  let geo;
  try {
    geo = await openCountryLookup(opts.geoipDb, { log });
  } catch (err) {
    post({ failed: `--geoip-db: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  countries = createCountryResolver(opts.geoipDb, geo, log);
  const trusted = parseTrustedProxies(opts.trustProxy);
  db = openDatabase(opts.dbPath);
  const visitorIds = createVisitorIds(db, Date.now);
  let fullSaidOn = "";
  const seen = createSeenVisitors(db, Date.now(), undefined, () => {
    const today = new Date().toISOString().slice(0, 10);
    if (today === fullSaidOn) return;
    fullSaidOn = today;
    log.error("unique visitors: the memory for today's visitors is full; further new visitors are counted without being remembered (uniques may be overcounted)");
  });
  const visitor: VisitorDeps = { classify: createClientClassifier(), country: countries.country, visitorId: visitorIds.of };
  // Salts and seen visitors go an hour after their day (or hour) is over: checked every minute.
  const forgetRound = createForgetting(db, visitorIds, seen);
  const forget = () => {
    try {
      forgetRound(Date.now());
    } catch {
      // a busy or full disk: the next minute tries again
    }
  };
  forget();
  setInterval(forget, 60_000);
  const threadId = currentThreadId();
  priority = recorderThreadPriority(opts.priorityFlag, threadId);
  writer = createVisitWriter(db, {
    seen,
    flushIntervalMs: opts.flushIntervalMs,
    maxQueued: opts.maxQueued,
    onError: (err) => report(err instanceof Error ? err.message : String(err)),
  });
  // One reusable view of a click's two forwarding headers for the trusted-proxy rule.
  let forwardedFor: string | null = null;
  let forwarded: string | null = null;
  const headers: ForwardingHeaders = {
    get: (name) => (name === "x-forwarded-for" ? forwardedFor : name === "forwarded" ? forwarded : null),
    has: (name) => (name === "x-forwarded-for" ? forwardedFor !== null : name === "forwarded" ? forwarded !== null : false),
  };
  const parsers = cachedParsers();
  // The same proxy chain repeats for every click of a visitor: decide it once (bounded).
  const addresses = new Lru<string, string>(10_000);
  const addressOf = (click: Click): string => {
    if (trusted.empty) return click.peer;
    const key = `${click.peer}\n${click.forwardedFor}\n${click.forwarded}`;
    let address = addresses.get(key);
    if (address === undefined) {
      forwardedFor = click.forwardedFor;
      forwarded = click.forwarded;
      addresses.set(key, (address = clientAddress(click.peer, headers, trusted)));
    }
    return address;
  };
  record = (flat) => {
    for (const click of unpackClicks(flat)) {
      const facts = { linkId: click.linkId, destination: click.destination ?? "", userAgent: click.userAgent, referer: click.referer, clientAddress: addressOf(click), now: click.ts };
      writer.record(buildVisit(facts, visitor, parsers));
      received++;
    }
  };
  setInterval(() => report(), opts.flushIntervalMs);
  indexLinksForSearch(db, log);
  priority.settle();
  // The thread id lets the click thread raise this thread when it falls behind (recorder-priority.ts).
  post({ ready: { geoSource: geo.source, geoBuildDate: geo.buildDate, threadId } });
}

// This thread is the background writer, so it also brings the link search index up to date:
// about once a second, and again at once while a burst of new links is being caught up.
const SEARCH_INDEX_MS = 1_000;
function indexLinksForSearch(database: ReturnType<typeof openDatabase>, log: ReturnType<typeof createLogger>): void {
  const indexer = createSearchIndexer(database);
  let lastError = "";
  const tick = () => {
    let advanced = 0;
    try {
      advanced = indexer.indexNew();
      lastError = "";
    } catch (err) {
      // A busy lock passes by itself; anything else (a full disk, a damaged index) is said once.
      const message = err instanceof Error ? err.message : String(err);
      if (!isLockBusy(err) && message !== lastError) log.error("indexing new links for search failed; searches scan them meanwhile", { error: message });
      lastError = message;
    }
    setTimeout(tick, advanced >= SEARCH_INDEX_BATCH ? 0 : SEARCH_INDEX_MS);
  };
  setTimeout(tick, SEARCH_INDEX_MS);
}

self.onmessage = (event: MessageEvent<ToRecorder>) => {
  const msg = event.data;
  if ("init" in msg) void init(msg.init);
  else if ("clicks" in msg) {
    record(JSON.parse(msg.clicks));
    priority.settle();
  }
  else if ("reloadGeo" in msg) void countries.reload();
  else {
    countries.stop();
    writer.close();
    report();
    // Closed here, not by terminate(): the last connection to close checkpoints and removes the WAL.
    db.close();
    post({ closed: writer.stats() });
  }
};
