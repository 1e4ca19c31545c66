// What the recorder thread does with the clicks handed to it, given the engine's RecorderStorage:
// each hand-over (a JSON array made by packClick) becomes Visits (trusted-proxy rule, UA and bot
// classification, country, referrer host, UTM, visitor key), queued and written in batches; the
// day's salts are read first where the engine answers later; salts and seen visitors are
// forgotten every minute. The thread's entry point (src/recorder-thread.ts) only wires messages to
// this; the benchmark runs it in-process (scripts/bench/recorder-cost.ts).

import type { Logger } from "../log.ts";
import { Lru } from "../util/lru.ts";
import { unpackClicks, type Click } from "./click.ts";
import { clientAddress, parseTrustedProxies, type ForwardingHeaders } from "./client-ip.ts";
import { createCountryResolver, type CountryResolver } from "./country.ts";
import { openCountryLookup } from "./geo.ts";
import { createClientClassifier } from "./ua.ts";
import { buildVisit, cachedParsers, type VisitorDeps } from "./visitor.ts";
import { createVisitQueue, type VisitWriter, type WriterStats } from "./visit-queue.ts";
import { createVisitorIds } from "./visitor-id.ts";
import { createForgetting } from "./forget.ts";
import type { RecorderStorage } from "./recorder-storage.ts";
import type { MaybePromise } from "../util/maybe.ts";

export type RecordingOptions = {
  storage: RecorderStorage;
  trustProxy: string;
  geoipDb: string | null;
  log: Logger;
  flushIntervalMs: number;
  maxQueued: number;
  /** Visits written at once, without waiting for the interval (the writer's default when absent). */
  batchSize?: number;
  /** After visits were taken or written: the figures of stats() and received() changed. */
  onChange?: () => void;
  onError?: (message: string) => void;
  now?: () => number;
};

export type RecordingPipeline = {
  /** Takes one hand-over; its visits are queued at once, or once their salts are read. */
  receive(message: string): void;
  /** Clicks taken so far (the click thread tells from it what is still in transit). */
  received(): number;
  stats(): WriterStats;
  /** Writes what is queued now (the writer's tick does this every flush interval). */
  flush(): MaybePromise<number>;
  /** Writes everything taken so far (for the benchmark and shutdown). */
  drain(): Promise<void>;
  reloadGeo(): Promise<void>;
  /** Stops the timers, writes what is queued, closes the storage. */
  close(): Promise<WriterStats>;
  geoSource: string;
  geoBuildDate: string;
};

/** Rejects with a message naming --geoip-db when that file is unusable. */
export async function createRecordingPipeline(o: RecordingOptions): Promise<RecordingPipeline> {
  const now = o.now ?? Date.now;
  let geo;
  try {
    geo = await openCountryLookup(o.geoipDb, { log: o.log });
  } catch (err) {
    throw new Error(`--geoip-db: ${err instanceof Error ? err.message : String(err)}`);
  }
  const countries: CountryResolver = createCountryResolver(o.geoipDb, geo, o.log);
  const trusted = parseTrustedProxies(o.trustProxy);
  const writer: VisitWriter = createVisitQueue(o.storage.batches, {
    flushIntervalMs: o.flushIntervalMs,
    maxQueued: o.maxQueued,
    batchSize: o.batchSize,
    onError: (err: unknown) => o.onError?.(err instanceof Error ? err.message : String(err)),
    onFlushed: () => o.onChange?.(),
  });
  const visitorIds = createVisitorIds(o.storage.salts, now);
  const visitor: VisitorDeps = { classify: createClientClassifier(), country: countries.country, visitorId: visitorIds.of };
  // Salts and seen visitors go an hour after their day (or hour) is over: checked every minute.
  const forgetting = createForgetting(visitorIds, o.storage);
  const forget = async () => {
    try {
      await forgetting(now());
    } catch {
      // a busy or full disk, a database away: the next minute tries again
    }
  };
  void forget();
  const forgetTimer = setInterval(() => void forget(), 60_000);

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
  let received = 0;
  const build = (flat: (string | number | null)[]) => {
    for (const click of unpackClicks(flat)) {
      const facts = { linkId: click.linkId, destination: click.destination ?? "", userAgent: click.userAgent, referer: click.referer, clientAddress: addressOf(click), now: click.ts };
      writer.record(buildVisit(facts, visitor, parsers));
      received++;
    }
    o.onChange?.();
  };
  // Clicks whose salts PostgreSQL is still reading, in order; SQLite never waits here.
  let recording: Promise<void> | null = null;
  const receive = (message: string) => {
    const flat = JSON.parse(message) as (string | number | null)[];
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
  const drain = async () => {
    await recording;
    while (writer.stats().queued > 0) {
      await writer.flush();
      if (writer.stats().lastError !== null) return; // refused: it stays queued
    }
  };
  return {
    receive,
    received: () => received,
    stats: () => writer.stats(),
    flush: () => writer.flush(),
    drain,
    reloadGeo: () => countries.reload(),
    async close() {
      clearInterval(forgetTimer);
      countries.stop();
      await recording; // clicks still waiting for their salts are queued first
      await writer.close(); // writes what is queued
      await o.storage.close();
      return writer.stats();
    },
    geoSource: geo.source,
    geoBuildDate: geo.buildDate,
  };
}
