// The recorder's thread: turns raw clicks into Visits (trusted-proxy rule, UA and bot
// classification, country, referrer host, UTM) and writes them with its own connection to the
// database (recorder-storage.ts: SQLite or PostgreSQL).
// In: init, {clicks: JSON}, {reloadGeo}, {close}. Out: {ready}|{failed} once, {stats} as they change, {closed}.

import { createLogger } from "../log.ts";
import type { LogFormat } from "../config.ts";
import { unpackClicks, type Click } from "./click.ts";
import { Lru } from "../util/lru.ts";
import { clientAddress, parseTrustedProxies, type ForwardingHeaders } from "./client-ip.ts";
import { createCountryResolver, type CountryResolver } from "./country.ts";
import { openCountryLookup } from "./geo.ts";
import { createClientClassifier } from "./ua.ts";
import { buildVisit, cachedParsers, type VisitorDeps } from "./visitor.ts";
import type { WriterStats } from "./visit-queue.ts";
import type { RecorderStorage } from "./recorder-storage.ts";
import { openSqliteRecorder } from "./sqlite-recorder.ts";
import { openPostgresRecorder } from "../db/postgres/recorder.ts";
import { engineOf } from "../db/storage.ts";
import { currentThreadId } from "../util/thread-policy.ts";
import { recorderThreadPriority, type PriorityFlag, type RecorderThreadPriority } from "./recorder-priority.ts";

export type RecorderInit = {
  /** --db: a SQLite file or a postgres:// URL */
  database: string;
  /** PostgreSQL: the password when the URL has none (systemd credential db-password) */
  databasePassword: string | null;
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

let storage: RecorderStorage;
let countries: CountryResolver;
let record: (flat: (string | number | null)[]) => void;
// Clicks whose salts PostgreSQL is still reading, in order; SQLite never waits here.
let recording: Promise<void> | null = null;
let priority: RecorderThreadPriority;
let received = 0;
let reported = "";

const report = (error?: string) => {
  const stats = storage.writer.stats();
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
  const writerOptions = {
    flushIntervalMs: opts.flushIntervalMs,
    maxQueued: opts.maxQueued,
    onError: (err: unknown) => report(err instanceof Error ? err.message : String(err)),
    log,
  };
  try {
    storage = engineOf(opts.database) === "postgres"
      ? await openPostgresRecorder(opts.database, opts.databasePassword, writerOptions)
      : openSqliteRecorder(opts.database, writerOptions);
  } catch (err) {
    post({ failed: `the recorder cannot open the database: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  const visitor: VisitorDeps = { classify: createClientClassifier(), country: countries.country, visitorId: storage.visitorId };
  // Salts and seen visitors go an hour after their day (or hour) is over: checked every minute.
  const forget = async () => {
    try {
      await storage.forget(Date.now());
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
      storage.writer.record(buildVisit(facts, visitor, parsers));
      received++;
    }
  };
  record = (flat) => {
    const before = recording;
    const loading = before === null ? storage.prepare(flat) : before.then(() => storage.prepare(flat));
    if (!(loading instanceof Promise)) return build(flat);
    // Waiting for salts (this hand-over's, or an earlier one's): built in order once they are read.
    const next: Promise<void> = loading
      .then(() => build(flat), () => build(flat))
      .finally(() => {
        if (recording === next) recording = null;
      });
    recording = next;
  };
  setInterval(() => report(), opts.flushIntervalMs);
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
  }
  else if ("reloadGeo" in msg) void countries.reload();
  else void close();
};

async function close(): Promise<void> {
  countries.stop();
  await recording; // clicks still waiting for their salts are queued first
  await storage.close(); // writes what is queued
  report();
  post({ closed: storage.writer.stats() });
}
