// The live view across instances (docs/webhooks.md: Live view): each instance writes the links its viewers
// watch to live_watches (renewed while they watch), reads every other instance's, and announces
// the visits its recorder wrote of links watched elsewhere by NOTIFY; every instance LISTENs and
// hands what others announced to its own streams. A NOTIFY carries at most 8,000 bytes: a batch
// goes in as many as it needs.

import { randomBytes } from "node:crypto";
import type { LiveBatch } from "../../events/live.ts";
import type { Pg } from "./connect.ts";

const CHANNEL = "shortener_live";
/** A viewer came or went somewhere: every instance reads live_watches at once rather than at its next poll. */
const WATCH_CHANNEL = "shortener_live_watch";
const POLL_MS = 1_000;
const WATCH_FOR_MS = 30_000;
const RENEW_MS = 10_000;
const MAX_PAYLOAD = 7_000;
const WATCH_DEBOUNCE_MS = 100;

export type LiveRelay = {
  /** This instance's recorder wrote these: to other instances' watchers of them. */
  announce(batch: LiveBatch): void;
  /** What this instance's viewers watch (the hub's); answers what the recorder must report (here and elsewhere). */
  watchHere(watch: { ids: string[]; all: boolean }): void;
  stop(): Promise<void>;
};

type Watch = { ids: string[]; all: boolean };

/** The relay's state, shared by the functions below. */
type Relay = {
  sql: Pg;
  instance: string;
  recorderWatch: (watch: Watch) => void;
  here: Watch;
  elsewhere: { ids: Set<string>; all: boolean };
  /** What recorderWatch was last told, and what live_watches last got (as keys). */
  told: string;
  written: string;
  renewedAt: number;
  stopped: boolean;
  debounce: ReturnType<typeof setTimeout> | undefined;
  writing: Promise<unknown>;
  timer: ReturnType<typeof setTimeout> | undefined;
  // One poll at a time: a viewer's arrival elsewhere during a poll makes the next one come at once
  // (a second chain of polls would otherwise start, and one more with every arrival).
  polling: boolean;
  again: boolean;
};

/** `publish`: to this instance's streams; `recorderWatch`: what this instance's recorder must report, here and elsewhere together. */
export async function startLiveRelay(sql: Pg, publish: (batch: LiveBatch) => void, recorderWatch: (watch: Watch) => void): Promise<LiveRelay> {
  const r: Relay = {
    sql, instance: randomBytes(8).toString("hex"), recorderWatch, here: { ids: [], all: false }, elsewhere: { ids: new Set(), all: false }, told: "", written: "",
    renewedAt: 0, stopped: false, debounce: undefined, writing: Promise.resolve(), timer: undefined, polling: false, again: false,
  };
  const subscription = await sql.listen(CHANNEL, (payload) => {
    try {
      const { from, batch } = JSON.parse(payload) as { from: string; batch: LiveBatch };
      if (from !== r.instance) publish(batch);
    } catch {}
  });
  const watchSubscription = await sql.listen(WATCH_CHANNEL, (from) => {
    if (from !== r.instance) pollNow(r);
  });
  r.timer = setTimeout(() => poll(r), 0);
  return {
    announce: (batch) => announce(r, batch),
    watchHere: (watch) => watchHere(r, watch),
    async stop() {
      r.stopped = true;
      clearTimeout(r.timer);
      clearTimeout(r.debounce);
      await r.writing;
      await subscription.unlisten().catch(() => {});
      await watchSubscription.unlisten().catch(() => {});
      await sql`DELETE FROM live_watches WHERE instance = ${r.instance}`.catch(() => {});
    },
  };
}

function tell(r: Relay): void {
  const ids = [...new Set([...r.here.ids, ...r.elsewhere.ids])].sort();
  const key = `${ids.join(" ")}|${r.here.all || r.elsewhere.all}`;
  if (key === r.told) return;
  r.told = key;
  r.recorderWatch({ ids, all: r.here.all || r.elsewhere.all });
}

async function writeWatches(r: Relay, force: boolean): Promise<void> {
  const { sql, instance } = r;
  const rows = [...r.here.ids, ...(r.here.all ? ["*"] : [])];
  const key = rows.join(" ");
  if (key === r.written && !force) return;
  const until = Date.now() + WATCH_FOR_MS;
  await sql.begin(async (tx) => {
    await tx`DELETE FROM live_watches WHERE instance = ${instance} AND link_id <> ALL(${sql.array(rows, "TEXT")})`;
    if (rows.length > 0) {
      await tx`INSERT INTO live_watches (instance, link_id, until) SELECT ${instance}, unnest(${sql.array(rows, "TEXT")}::text[]), ${until}
               ON CONFLICT (instance, link_id) DO UPDATE SET until = excluded.until`;
    }
  });
  r.written = key; // only once committed: a write that failed is made again by the next poll
}

function pollNow(r: Relay): void {
  if (r.stopped) return;
  if (r.polling) r.again = true;
  else {
    clearTimeout(r.timer);
    r.timer = setTimeout(() => poll(r), 0);
  }
}

async function poll(r: Relay): Promise<void> {
  r.polling = true;
  try {
    const now = Date.now();
    const renew = now - r.renewedAt >= RENEW_MS && (r.here.ids.length > 0 || r.here.all);
    await (r.writing = r.writing.then(() => writeWatches(r, renew)).catch(() => {})); // one write at a time
    if (now - r.renewedAt >= RENEW_MS) r.renewedAt = now;
    const rows = await r.sql`SELECT DISTINCT link_id FROM live_watches WHERE instance <> ${r.instance} AND until > ${now}`;
    const ids = new Set<string>(rows.map((row: { link_id: string }) => row.link_id));
    r.elsewhere = { all: ids.delete("*"), ids };
    tell(r);
    if (Math.random() < 0.01) await r.sql`DELETE FROM live_watches WHERE until < ${now - WATCH_FOR_MS}`;
  } catch {
    // the database away: the next poll tries again
  }
  r.polling = false;
  if (!r.stopped) r.timer = setTimeout(() => poll(r), r.again ? 0 : POLL_MS);
  r.again = false;
}

function announce(r: Relay, batch: LiveBatch): void {
  const visits = batch.visits.filter(([id]) => r.elsewhere.ids.has(id));
  const more = batch.more.filter(([id]) => r.elsewhere.ids.has(id));
  const counts = r.elsewhere.all ? batch.counts : [];
  if (visits.length === 0 && more.length === 0 && counts.length === 0) return;
  for (const chunk of chunks({ visits, more, counts })) void r.sql.notify(CHANNEL, JSON.stringify({ from: r.instance, batch: chunk })).catch(() => {});
}

function watchHere(r: Relay, watch: Watch): void {
  r.here = watch;
  tell(r);
  // Streams coming and going in a burst make one write and one NOTIFY, one at a time.
  clearTimeout(r.debounce);
  r.debounce = setTimeout(() => {
    r.writing = r.writing
      .then(() => writeWatches(r, false))
      .then(() => r.sql.notify(WATCH_CHANNEL, r.instance))
      .catch(() => {});
  }, WATCH_DEBOUNCE_MS);
}

/** The batch in parts whose JSON stays under a NOTIFY's limit. */
function chunks(batch: LiveBatch): LiveBatch[] {
  const out: LiveBatch[] = [];
  let current: LiveBatch = { visits: [], more: [], counts: [] };
  let size = 0;
  const push = (add: () => void, bytes: number) => {
    if (size + bytes > MAX_PAYLOAD && size > 0) {
      out.push(current);
      current = { visits: [], more: [], counts: [] };
      size = 0;
    }
    add();
    size += bytes;
  };
  for (const v of batch.visits) push(() => current.visits.push(v), Buffer.byteLength(JSON.stringify(v)) + 1);
  for (const m of batch.more) push(() => current.more.push(m), Buffer.byteLength(JSON.stringify(m)) + 1);
  for (const c of batch.counts) push(() => current.counts.push(c), Buffer.byteLength(JSON.stringify(c)) + 1);
  if (size > 0) out.push(current);
  return out;
}

