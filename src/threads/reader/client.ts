// SQLite's reads that can take milliseconds, on a thread of their own (entry.ts): the StatsSource,
// the LinkLister and the OverviewSource of the click thread are these, and answer through
// promises. A read there costs the click thread a message each way; a long one no longer holds it
// (docs/clicks.md: How clicks are counted). PostgreSQL needs none of this: its reads are answered
// by the database server while the click thread goes on.

import { createLogger, type Logger } from "../../log.ts";
import { startThread } from "../start.ts";
import type { LinkLister, LinkPage } from "../../links/list.ts";
import { everyLink } from "../../links/list.ts";
import type { StatsRows, StatsSource } from "../../stats/link-stats.ts";
import type { DailyRollupRow, OverviewRows, OverviewSource } from "../../stats/overview.ts";
import type { FromReader, ReadRequest, ReadResult, ToReader } from "./protocol.ts";

export type SqliteReader = { stats: StatsSource; lister: LinkLister; overview: OverviewSource; close(): Promise<void> };

/**
 * How long a stop waits for the reader (docs/architecture.md: Threads): the reads asked before the
 * stop are answered first; the longest, a large link's statistics, takes well under a second.
 */
export const READER_CLOSE_WITHIN_MS = 5_000;

/** An error from the reader thread, with the database's code (SQLITE_BUSY, …) that src/db/errors.ts reads. */
class ReadError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
  }
}

/** Starts the reader thread on the file at path (migrated already); rejects when it cannot open it. */
export async function startSqliteReader(path: string, log: Logger = createLogger("text")): Promise<SqliteReader> {
  const waiting = new Map<number, { resolve: (r: ReadResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  // Reads waiting when the thread dies or is stopped fail, and so does every later one.
  const refuseAll = (reason: string) => {
    for (const w of waiting.values()) w.reject(new Error(reason));
    waiting.clear();
  };
  const { thread } = await startThread<string, true, true, ToReader, FromReader>({
    name: "reader",
    entry: "threads/reader/entry.ts",
    init: path,
    closeWithinMs: READER_CLOSE_WITHIN_MS,
    log,
    onMessage: (msg) => {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if ("result" in msg) w?.resolve(msg.result);
      else w?.reject(new ReadError(msg.error.message, msg.error.code));
    },
    onFailed: refuseAll,
  });
  let closed = false;
  const ask = <R extends ReadResult>(request: ReadRequest): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const failure = thread.failure() ?? (closed ? "the reader thread is closed" : null);
      if (failure !== null) return reject(new Error(failure));
      const id = ++next;
      waiting.set(id, { resolve: resolve as (r: ReadResult) => void, reject });
      thread.post({ ...request, id } satisfies ToReader);
    });
  const page = (query: Parameters<LinkLister["page"]>[0]) => ask<LinkPage>({ page: query });
  return {
    stats: (linkSeq, plan) => ask<StatsRows>({ stats: [linkSeq, plan] }),
    lister: { page, all: (owner) => everyLink(page, owner) },
    overview: {
      read: (owner, first, top) => ask<OverviewRows>({ overview: [owner, first, top] }),
      daily: (seqs, first) => ask<DailyRollupRow[]>({ daily: [seqs, first] }),
    },
    async close() {
      closed = true;
      await thread.close();
      refuseAll("the reader thread is closed");
    },
  };
}
