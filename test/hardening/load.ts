// Mixed load for the crash tests: creates, clicks and stats from a few concurrent clients, with a
// ledger of what the server acknowledged and when, so that what survives can be checked after.

import { click } from "../support/clicks.ts";

export type Ledger = {
  /** Links answered 201: id → URL. */
  created: Map<string, string>;
  /** Time (Date.now()) each answered 302 arrived, per link id. */
  answered: Map<string, number[]>;
  /** Clicks sent per link id, answered or not (a click can be counted yet its answer lost in a crash). */
  sent: Map<string, number>;
  /** Statuses that are neither success nor a connection failure: must stay empty. */
  unexpected: string[];
};

export function newLedger(): Ledger {
  return { created: new Map(), answered: new Map(), sent: new Map(), unexpected: [] };
}

/**
 * Runs `clients` loops against base until stop() is true or the server stops answering
 * (connection refused/reset ends a loop: that is the crash or shutdown under test).
 */
export async function mixedLoad(base: string, links: readonly string[], clients: number, ledger: Ledger, stop: () => boolean): Promise<void> {
  let n = 0;
  const one = async (c: number) => {
    while (!stop()) {
      const i = n++;
      try {
        if (i % 5 === 0) {
          const url = `https://example.com/load/${c}/${i}`;
          const res = await fetch(`${base}/api/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });
          const body = (await res.json()) as { data?: { shortUrl: string } };
          if (res.status === 201) ledger.created.set(body.data!.shortUrl.split("/").pop()!, url);
          else ledger.unexpected.push(`create ${res.status}`);
        } else if (i % 5 === 1) {
          const res = await fetch(`${base}/api/stats?id=${links[i % links.length]}`);
          await res.arrayBuffer();
          if (res.status !== 200) ledger.unexpected.push(`stats ${res.status}`);
        } else {
          const id = links[i % links.length]!;
          ledger.sent.set(id, (ledger.sent.get(id) ?? 0) + 1);
          const res = await click(base, id, { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" });
          await res.arrayBuffer();
          if (res.status === 302) {
            const list = ledger.answered.get(id) ?? [];
            list.push(Date.now());
            ledger.answered.set(id, list);
          } else ledger.unexpected.push(`click ${res.status}`);
        }
      } catch {
        return; // the server is gone (killed or stopped): this client is done
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => one(c)));
}

export const total = (m: Map<string, number[]>) => [...m.values()].reduce((a, l) => a + l.length, 0);
