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

/** `publish`: to this instance's streams; `recorderWatch`: what this instance's recorder must report, here and elsewhere together. */
export async function startLiveRelay(sql: Pg, publish: (batch: LiveBatch) => void, recorderWatch: (watch: { ids: string[]; all: boolean }) => void): Promise<LiveRelay> {
  const instance = randomBytes(8).toString("hex");
  let here = { ids: [] as string[], all: false };
  let elsewhere = { ids: new Set<string>(), all: false };
  let told = "";
  const tell = () => {
    const ids = [...new Set([...here.ids, ...elsewhere.ids])].sort();
    const key = `${ids.join(" ")}|${here.all || elsewhere.all}`;
    if (key === told) return;
    told = key;
    recorderWatch({ ids, all: here.all || elsewhere.all });
  };
  const subscription = await sql.listen(CHANNEL, (payload) => {
    try {
      const { from, batch } = JSON.parse(payload) as { from: string; batch: LiveBatch };
      if (from !== instance) publish(batch);
    } catch {}
  });

  let written = "";
  const writeWatches = async (force: boolean) => {
    const rows = [...here.ids, ...(here.all ? ["*"] : [])];
    const key = rows.join(" ");
    if (key === written && !force) return;
    const until = Date.now() + WATCH_FOR_MS;
    await sql.begin(async (tx) => {
      await tx`DELETE FROM live_watches WHERE instance = ${instance} AND link_id <> ALL(${sql.array(rows, "TEXT")})`;
      if (rows.length > 0) {
        await tx`INSERT INTO live_watches (instance, link_id, until) SELECT ${instance}, unnest(${sql.array(rows, "TEXT")}::text[]), ${until}
                 ON CONFLICT (instance, link_id) DO UPDATE SET until = excluded.until`;
      }
    });
    written = key; // only once committed: a write that failed is made again by the next poll
  };
  let renewedAt = 0;
  let stopped = false;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One poll at a time: a viewer's arrival elsewhere during a poll makes the next one come at once
  // (a second chain of polls would otherwise start, and one more with every arrival).
  let polling = false;
  let again = false;
  const pollNow = () => {
    if (stopped) return;
    if (polling) again = true;
    else {
      clearTimeout(timer);
      timer = setTimeout(poll, 0);
    }
  };
  const watchSubscription = await sql.listen(WATCH_CHANNEL, (from) => {
    if (from !== instance) pollNow();
  });
  const poll = async () => {
    polling = true;
    try {
      const now = Date.now();
      const renew = now - renewedAt >= RENEW_MS && (here.ids.length > 0 || here.all);
      await (writing = writing.then(() => writeWatches(renew)).catch(() => {})); // one write at a time
      if (now - renewedAt >= RENEW_MS) renewedAt = now;
      const rows = await sql`SELECT DISTINCT link_id FROM live_watches WHERE instance <> ${instance} AND until > ${now}`;
      const ids = new Set<string>(rows.map((r: { link_id: string }) => r.link_id));
      elsewhere = { all: ids.delete("*"), ids };
      tell();
      if (Math.random() < 0.01) await sql`DELETE FROM live_watches WHERE until < ${now - WATCH_FOR_MS}`;
    } catch {
      // the database away: the next poll tries again
    }
    polling = false;
    if (!stopped) timer = setTimeout(poll, again ? 0 : POLL_MS);
    again = false;
  };
  timer = setTimeout(poll, 0);

  return {
    announce(batch) {
      const visits = batch.visits.filter(([id]) => elsewhere.ids.has(id));
      const more = batch.more.filter(([id]) => elsewhere.ids.has(id));
      const counts = elsewhere.all ? batch.counts : [];
      if (visits.length === 0 && more.length === 0 && counts.length === 0) return;
      for (const chunk of chunks({ visits, more, counts })) void sql.notify(CHANNEL, JSON.stringify({ from: instance, batch: chunk })).catch(() => {});
    },
    watchHere(watch) {
      here = watch;
      tell();
      // Streams coming and going in a burst make one write and one NOTIFY, one at a time.
      clearTimeout(debounce);
      debounce = setTimeout(() => {
        writing = writing
          .then(() => writeWatches(false))
          .then(() => sql.notify(WATCH_CHANNEL, instance))
          .catch(() => {});
      }, WATCH_DEBOUNCE_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(debounce);
      await writing;
      await subscription.unlisten().catch(() => {});
      await watchSubscription.unlisten().catch(() => {});
      await sql`DELETE FROM live_watches WHERE instance = ${instance}`.catch(() => {});
    },
  };
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

