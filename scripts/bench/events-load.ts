// What the events benchmark puts on a target (docs/webhooks.md: Webhooks, Live view): two webhooks wanting
// every event type, one to a receiver here that answers at once and one to a port nobody listens
// on (down: every delivery fails and waits for its retry), and live viewers reading the stats
// streams of the links being clicked. Used by clicks-ab.ts --events NAME.

import { spawnSync } from "node:child_process";

const EVERY_EVENT = ["link.created", "link.updated", "link.deleted", "link.gone", "link.clicks", "link.milestone"];

export type EventsLoad = {
  /** Opens `viewers` live streams over these links (after they are made: their creates are events too). */
  watch(ids: string[], viewers: number): Promise<void>;
  received: () => number;
  events: () => number;
  stop: () => void;
};

/** `bin` and `db`: the target's binary and database, for the admin key. */
export async function putEventsLoad(base: string, bin: string, db: string): Promise<EventsLoad> {
  const made = spawnSync(bin, ["key", "create", `bench-${Date.now()}`, "--scope", "admin", "--db", db], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`key create failed: ${made.stderr}`);
  const key = made.stdout.trim();
  let received = 0;
  const receiver = Bun.serve({
    hostname: "127.0.0.8",
    port: 0,
    async fetch(request) {
      await request.arrayBuffer();
      received++;
      return new Response(null, { status: 204 });
    },
  });
  for (const url of [`http://127.0.0.8:${receiver.port}/hook`, "http://127.0.0.9:9/down"]) {
    const r = await fetch(`${base}/api/webhooks`, {
      method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ url, events: EVERY_EVENT }),
    });
    if (r.status !== 201) throw new Error(`webhook create: ${r.status} ${await r.text()}`);
  }
  let events = 0;
  const abort = new AbortController();
  const watch = async (ids: string[], viewers: number) => {
    for (let i = 0; i < viewers; i++) {
      const response = await fetch(`${base}/api/stats/live?id=${ids[i % ids.length]}`, { signal: abort.signal });
      const reader = response.body!.getReader();
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            for (const byte of value) if (byte === 0x0a) events++; // lines: a cheap measure of what came
          }
        } catch {}
      })();
    }
  };
  return { watch, received: () => received, events: () => events, stop: () => (abort.abort(), receiver.stop(true)) };
}
