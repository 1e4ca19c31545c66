// The recorder thread's entry point (a Worker started by src/visits/recorder.ts): like main.ts for
// the click thread, it wires an engine (src/db/open-recorder.ts) to the domain. It turns raw
// clicks into Visits (trusted-proxy rule, UA and bot classification, country, referrer host, UTM,
// visitor key) and writes them in batches with its own connection to the database.
// In: init, {clicks: JSON}, {reloadGeo}, {close}. Out: {ready}|{failed} once, {stats} as they change, {closed}.

import { createLogger } from "./log.ts";
import { unpackClicks, type Click } from "./visits/click.ts";
import { Lru } from "./util/lru.ts";
import { clientAddress, parseTrustedProxies, type ForwardingHeaders } from "./visits/client-ip.ts";
import { createCountryResolver, type CountryResolver } from "./visits/country.ts";
import { openCountryLookup } from "./visits/geo.ts";
import { createClientClassifier } from "./visits/ua.ts";
import { buildVisit, cachedParsers, type VisitorDeps } from "./visits/visitor.ts";
import { createVisitQueue, type VisitWriter } from "./visits/visit-queue.ts";
import { createVisitorIds } from "./visits/visitor-id.ts";
import { createForgetting } from "./visits/forget.ts";
import type { RecorderStorage } from "./visits/recorder-storage.ts";
import type { FromRecorder, RecorderInit, ToRecorder } from "./visits/recorder-protocol.ts";
import { openRecorderStorage } from "./db/open-recorder.ts";
import { currentThreadId } from "./util/thread-policy.ts";
import { recorderThreadPriority, type RecorderThreadPriority } from "./visits/recorder-priority.ts";

declare const self: Worker;
const post = (msg: FromRecorder) => self.postMessage(msg);

let storage: RecorderStorage;
let writer: VisitWriter;
let countries: CountryResolver;
let record: (flat: (string | number | null)[]) => void;
// Clicks whose salts PostgreSQL is still reading, in order; SQLite never waits here.
let recording: Promise<void> | null = null;
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
// The click thread learns the figures at most once per flush interval, and only after they
// changed: an idle recorder sends nothing and sets no timer.
let reportTimer: ReturnType<typeof setTimeout> | null = null;
let reportEveryMs = 100;
const reportSoon = () => {
  reportTimer ??= setTimeout(() => {
    reportTimer = null;
    report();
  }, reportEveryMs);
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
  try {
    storage = await openRecorderStorage(opts.database, opts.databasePassword, log);
  } catch (err) {
    post({ failed: `the recorder cannot open the database: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  writer = createVisitQueue(storage.batches, {
    flushIntervalMs: opts.flushIntervalMs,
    maxQueued: opts.maxQueued,
    onError: (err: unknown) => report(err instanceof Error ? err.message : String(err)),
    onFlushed: reportSoon,
  });
  reportEveryMs = opts.flushIntervalMs;
  const visitorIds = createVisitorIds(storage.salts, Date.now);
  const visitor: VisitorDeps = { classify: createClientClassifier(), country: countries.country, visitorId: visitorIds.of };
  // Salts and seen visitors go an hour after their day (or hour) is over: checked every minute.
  const forgetting = createForgetting(visitorIds, storage);
  const forget = async () => {
    try {
      await forgetting(Date.now());
    } catch {
      // a busy or full disk, a database away: the next minute tries again
    }
  };
  void forget();
  setInterval(() => void forget(), 60_000);
  const threadId = currentThreadId();
  priority = recorderThreadPriority(opts.priorityFlag, threadId);
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
  const build = (flat: (string | number | null)[]) => {
    for (const click of unpackClicks(flat)) {
      const facts = { linkId: click.linkId, destination: click.destination ?? "", userAgent: click.userAgent, referer: click.referer, clientAddress: addressOf(click), now: click.ts };
      writer.record(buildVisit(facts, visitor, parsers));
      received++;
    }
    reportSoon();
  };
  record = (flat) => {
    const before = recording;
    const loading = before === null ? visitorIds.prepare(flat) : before.then(() => visitorIds.prepare(flat));
    if (!(loading instanceof Promise)) return build(flat);
    // Waiting for salts (this hand-over's, or an earlier one's): built in order once they are read.
    const next: Promise<void> = loading
      .then(() => build(flat), () => build(flat))
      .finally(() => {
        if (recording === next) recording = null;
      });
    recording = next;
  };
  priority.settle();
  // The thread id lets the click thread raise this thread when it falls behind (recorder-priority.ts).
  post({ ready: { geoSource: geo.source, geoBuildDate: geo.buildDate, threadId } });
}

self.onmessage = (event: MessageEvent<ToRecorder>) => {
  const msg = event.data;
  if ("init" in msg) void init(msg.init);
  else if ("clicks" in msg) {
    record(JSON.parse(msg.clicks));
    priority.settle();
  } else if ("reloadGeo" in msg) void countries.reload();
  else void close();
};

async function close(): Promise<void> {
  countries.stop();
  await recording; // clicks still waiting for their salts are queued first
  await writer.close(); // writes what is queued
  await storage.close();
  if (reportTimer !== null) clearTimeout(reportTimer);
  report();
  post({ closed: writer.stats() });
}
