// SQLite's reads that can take milliseconds, on a thread of their own (src/reader-thread.ts): the
// StatsSource, the LinkLister and the OverviewSource of the click thread are these, and answer
// through promises. A read there costs the click thread a message each way; a long one no longer
// holds it (docs/clicks.md: How clicks are counted). PostgreSQL needs none of this: its reads are answered
// by the database server while the click thread goes on.

import { threadEntry } from "../../util/thread-entry.ts";
import type { LinkLister, LinkPage } from "../../links/list.ts";
import { everyLink } from "../../links/list.ts";
import type { StatsRows, StatsSource } from "../../stats/link-stats.ts";
import type { OverviewRows, OverviewSource } from "../../stats/overview.ts";
import type { FromReader, ReadRequest, ReadResult, ToReader } from "./reader-protocol.ts";

export type SqliteReader = { stats: StatsSource; lister: LinkLister; overview: OverviewSource; close(): Promise<void> };

/** An error from the reader thread, with the database's code (SQLITE_BUSY, …) that src/db/errors.ts reads. */
class ReadError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
  }
}

/** Starts the reader thread on the file at path (migrated already); rejects when it cannot open it. */
export function startSqliteReader(path: string): Promise<SqliteReader> {
  const worker = new Worker(threadEntry("reader-thread.ts"));
  const waiting = new Map<number, { resolve: (r: ReadResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  let onClosed: (() => void) | null = null;
  const ask = <R extends ReadResult>(request: ReadRequest): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve: resolve as (r: ReadResult) => void, reject });
      worker.postMessage({ ...request, id } satisfies ToReader);
    });
  return new Promise((resolve, reject) => {
    worker.onerror = (event) => {
      for (const w of waiting.values()) w.reject(new Error(`the reader thread failed: ${event.message}`));
      waiting.clear();
      reject(new Error(`the reader thread failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<FromReader>) => {
      const msg = event.data;
      if ("id" in msg) {
        const w = waiting.get(msg.id);
        waiting.delete(msg.id);
        if ("result" in msg) w?.resolve(msg.result);
        else w?.reject(new ReadError(msg.error.message, msg.error.code));
      } else if ("ready" in msg) {
        const page = (query: Parameters<LinkLister["page"]>[0]) => ask<LinkPage>({ page: query });
        resolve({
          stats: (linkId, plan) => ask<StatsRows>({ stats: [linkId, plan] }),
          lister: { page, all: (owner) => everyLink(page, owner) },
          overview: {
            read: (owner, first, top) => ask<OverviewRows>({ overview: [owner, first, top] }),
            daily: (ids, first) => ask<{ link_id: string; day: string; total: number }[]>({ daily: [ids, first] }),
          },
          close: () =>
            new Promise<void>((done) => {
              onClosed = () => {
                worker.terminate();
                done();
              };
              worker.postMessage({ close: true } satisfies ToReader);
            }),
        });
      } else if ("failed" in msg) {
        worker.terminate();
        reject(new Error(msg.failed));
      } else onClosed?.();
    };
    worker.postMessage({ open: path } satisfies ToReader);
  });
}
