// What the recorder thread does with the clicks handed to it, given the engine's RecorderStorage:
// each hand-over (click.ts) becomes Visits (trusted-proxy rule, UA and bot classification,
// country, referrer host, UTM, visitor key), queued and written in batches; the day's salts are
// read first where the engine answers later; salts and seen visitors are forgotten every minute.
// The thread's entry point (src/threads/recorder/entry.ts) only wires messages to this; the benchmark runs
// it in-process (scripts/bench/recorder-cost.ts).
//
// What follows from a repeated string is worked out once per string of the hand-over's dictionary
// (a User-Agent's browser, bot flag and digest; a Referer's host; a destination's UTM), and what
// follows from all of them and the country once per combination (a profile): a click then costs
// little more than its address, its visitor key and a few lookups.

import type { Logger } from "../log.ts";
import { createClickReader, type CodedClick, type ParsedHandover } from "./click.ts";
import { clientAddress, parseTrustedProxies, type ForwardingHeaders } from "./client-ip.ts";
import { createCountryResolver, type CountryResolver } from "./country.ts";
import { openCountryLookup } from "./geo.ts";
import { classifyUserAgent, type Client } from "./ua.ts";
import { referrerHost, utmParameters, type Utm } from "./visitor.ts";
import { makeProfile } from "./profiles.ts";
import { parseRoute, UNKNOWN, type Visit, type VisitProfile, type VisitRoute } from "./visit.ts";
import { createVisitQueue, type VisitWriter, type WriterStats } from "./visit-queue.ts";
import { createVisitorIds, userAgentDigest, type VisitorIds } from "./visitor-id.ts";
import { createForgetting } from "./forget.ts";
import type { RecorderStorage } from "./recorder-storage.ts";
import type { MaybePromise } from "../util/maybe.ts";
import { noCountAddresses } from "./opt-outs.ts";
import { ORPHAN_SEQ, parseOrphanText, type OrphanTarget } from "./orphans.ts";

/** Profiles kept at once (each a few hundred bytes); past this the map starts over. */
const MAX_PROFILES = 20_000;
/**
 * Above any code + 1: a dictionary holds MAX_CODES (8,192) strings plus at most those of one
 * hand-over (1,000 clicks of 5 coded strings), far below 2^17; three such digits stay below 2^51.
 */
const CODE_RADIX = 2 ** 17;

export type RecordingOptions = {
  storage: RecorderStorage;
  trustProxy: string;
  /** --no-count-from: clicks from these addresses are taken and not recorded (opt-outs.ts); absent or "": none */
  noCountFrom?: string;
  geoipDb: string | null;
  log: Logger;
  flushIntervalMs: number;
  maxQueued: number;
  /** Visits written at once, without waiting for the interval (the writer's default when absent). */
  batchSize?: number;
  /** After visits were taken or written: the figures of stats() and received() changed. */
  onChange?: () => void;
  onError?: (message: string) => void;
  /** After a batch is committed, with its visits (the live view's). */
  onWritten?: (batch: readonly Visit[]) => void;
  now?: () => number;
};

export type RecordingPipeline = {
  /** Takes one hand-over; its visits are queued at once, or once their salts are read. */
  receive(message: string): void;
  /** Clicks taken so far (the click thread tells from it what is still in transit). */
  received(): number;
  /** Of those, the clicks from --no-count-from addresses, not recorded. */
  notCounted(): number;
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
  const { geo, countries } = await openCountries(o);
  const writer: VisitWriter = createVisitQueue(o.storage.batches, {
    flushIntervalMs: o.flushIntervalMs,
    maxQueued: o.maxQueued,
    batchSize: o.batchSize,
    onError: (err: unknown) => o.onError?.(err instanceof Error ? err.message : String(err)),
    onFlushed: () => o.onChange?.(),
    onWritten: o.onWritten,
  });
  const visitorIds = createVisitorIds(o.storage.salts, now);
  const stopForgetting = startForgetting(visitorIds, o.storage, now);
  const addressOf = clientAddresses(o.trustProxy);
  const reader = createClickReader();
  const codes = codeCaches(reader);
  const notCountedFrom = noCountAddresses(o.noCountFrom ?? "");
  let received = 0;
  let notCounted = 0;
  const build = (handover: ParsedHandover) => {
    // The dictionary starts over with this hand-over: so do the caches of its codes.
    if (handover.startsOver) codes.startOver();
    reader.read(handover, (click) => {
      const address = addressOf(click);
      // Taken (the click thread counts it as arrived) but not recorded; nothing more is worked out for it.
      // A visit to no link is kept out alike (docs/statistics.md: Not counting some clicks).
      if (notCountedFrom !== null && notCountedFrom.contains(address)) {
        notCounted++;
        received++;
        return;
      }
      const agent = codes.agentOf(click.userAgent);
      const p = codes.profileOf(click, agent.client);
      // A visit to no link: its target instead of a route, and no visitor key (nothing counts it unique).
      const orphan = click.linkSeq === ORPHAN_SEQ;
      const visit: Visit = {
        linkSeq: click.linkSeq, linkId: click.linkId, ts: click.ts, browser: p.browser, os: p.os, device: p.device, country: countries.country(address) ?? UNKNOWN, referrer: p.referrer,
        utmSource: p.utmSource, utmMedium: p.utmMedium, utmCampaign: p.utmCampaign, isBot: p.isBot,
        visitor: orphan ? null : visitorIds.of(click.ts, click.linkSeq, address, agent.digest), profile: p, route: orphan ? null : codes.routeOf(click.route),
      };
      if (orphan) visit.orphan = codes.orphanOf(click.route);
      writer.record(visit);
      received++;
    });
    o.onChange?.();
  };
  const salted = afterSalts(visitorIds, reader, build);
  const drain = async () => {
    await salted.waiting();
    while (writer.stats().queued > 0) {
      await writer.flush();
      if (writer.stats().lastError !== null) return; // refused: it stays queued
    }
  };
  return {
    receive: salted.receive,
    received: () => received,
    notCounted: () => notCounted,
    stats: () => writer.stats(),
    flush: () => writer.flush(),
    drain,
    reloadGeo: () => countries.reload(),
    async close() {
      stopForgetting();
      countries.stop();
      await salted.waiting(); // clicks still waiting for their salts are queued first
      await writer.close(); // writes what is queued
      await o.storage.close();
      return writer.stats();
    },
    geoSource: geo.source,
    geoBuildDate: geo.buildDate,
  };
}

/** The country lookup (--geoip-db) and the resolver over it. */
async function openCountries(o: RecordingOptions) {
  let geo;
  try {
    geo = await openCountryLookup(o.geoipDb, { log: o.log });
  } catch (err) {
    throw new Error(`--geoip-db: ${err instanceof Error ? err.message : String(err)}`);
  }
  const countries: CountryResolver = createCountryResolver(o.geoipDb, geo, o.log);
  return { geo, countries };
}

/** Salts and seen visitors go an hour after their day (or hour) is over: checked every minute. Answers the stop. */
function startForgetting(visitorIds: VisitorIds, storage: RecorderStorage, now: () => number): () => void {
  const forgetting = createForgetting(visitorIds, storage);
  const forget = async () => {
    try {
      await forgetting(now());
    } catch {
      // a busy or full disk, a database away: the next minute tries again
    }
  };
  void forget();
  const timer = setInterval(() => void forget(), 60_000);
  return () => clearInterval(timer);
}

/**
 * A click's client address by the trusted-proxy rule (--trust-proxy). Worked out for every click:
 * a cache keyed by the proxy chain paid off only when visitors repeat, and cost a miss, an
 * insertion and an eviction per click when each visitor is new (docs/performance.md).
 */
function clientAddresses(trustProxy: string): (click: CodedClick) => string {
  const trusted = parseTrustedProxies(trustProxy);
  // One reusable view of a click's two forwarding headers for the trusted-proxy rule.
  let forwardedFor: string | null = null;
  let forwarded: string | null = null;
  const headers: ForwardingHeaders = {
    get: (name) => (name === "x-forwarded-for" ? forwardedFor : name === "forwarded" ? forwarded : null),
    has: (name) => (name === "x-forwarded-for" ? forwardedFor !== null : name === "forwarded" ? forwarded !== null : false),
  };
  return (click) => {
    if (trusted.empty) return click.peer;
    forwardedFor = click.forwardedFor;
    forwarded = click.forwarded;
    return clientAddress(click.peer, headers, trusted);
  };
}

/**
 * Per code of the hand-over's dictionary, forgotten with it: an agent's client and digest, a
 * Referer's host, a destination's UTM, a route; per combination of them, its profile.
 */
function codeCaches(reader: ReturnType<typeof createClickReader>) {
  let agents: { client: Client; digest: string }[] = [];
  let referrers: string[] = [];
  let campaigns: Utm[] = [];
  let routes: (VisitRoute | null)[] = [];
  let orphans: OrphanTarget[] = [];
  let profiles = new Map<number, VisitProfile>();
  const referrerOf = (code: number) => (referrers[code + 1] ??= referrerHost(reader.text(code)));
  const campaignOf = (code: number) => (campaigns[code + 1] ??= utmParameters(reader.text(code) ?? ""));
  return {
    startOver() {
      agents = [];
      referrers = [];
      campaigns = [];
      routes = [];
      orphans = [];
      profiles = new Map();
    },
    agentOf(code: number) {
      let a = agents[code + 1]; // -1, no User-Agent, is index 0
      if (a === undefined) {
        const text = reader.text(code);
        agents[code + 1] = a = { client: classifyUserAgent(text), digest: userAgentDigest(text) };
      }
      return a;
    },
    orphanOf: (code: number) => (orphans[code] ??= parseOrphanText(reader.text(code) ?? "")),
    routeOf: (code: number) => (code === -1 ? null : (routes[code] ??= parseRoute(reader.text(code) ?? ""))),
    profileOf(click: CodedClick, client: Client): VisitProfile {
      // The three codes (from -1) as digits of one number: a Map key with no string made.
      const key = ((click.userAgent + 1) * CODE_RADIX + click.referer + 1) * CODE_RADIX + click.destination + 1;
      let p = profiles.get(key);
      if (p === undefined) {
        const utm = campaignOf(click.destination);
        const f = { ...client, referrer: referrerOf(click.referer), utmSource: utm.source, utmMedium: utm.medium, utmCampaign: utm.campaign };
        // Bounded: a flood of combinations only makes them be worked out again.
        if (profiles.size >= MAX_PROFILES) profiles = new Map();
        profiles.set(key, (p = makeProfile(f)));
      }
      return p;
    },
  };
}

/**
 * Hand-overs built in order once their salts are read: at once over SQLite, which never waits
 * here; PostgreSQL's are read first. `waiting`: the hand-overs still waiting, done.
 */
function afterSalts(visitorIds: VisitorIds, reader: ReturnType<typeof createClickReader>, build: (handover: ParsedHandover) => void) {
  let recording: Promise<void> | null = null;
  return {
    receive(message: string): void {
      const handover = reader.parse(message);
      const before = recording;
      const loading = before === null ? visitorIds.prepare(handover.times()) : before.then(() => visitorIds.prepare(handover.times()));
      if (!(loading instanceof Promise)) return build(handover);
      // Waiting for salts (this hand-over's, or an earlier one's): built in order once they are read.
      const next: Promise<void> = loading
        .then(() => build(handover), () => build(handover))
        .finally(() => {
          if (recording === next) recording = null;
        });
      recording = next;
    },
    waiting: async (): Promise<void> => {
      await recording;
    },
  };
}
