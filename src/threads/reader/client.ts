// SQLite's reads that can take milliseconds, on a thread of their own (entry.ts): the StatsSource,
// the LinkLister and the OverviewSource of the click thread are these, and answer through
// promises. A read there costs the click thread a message each way; a long one no longer holds it
// (docs/clicks.md: How clicks are counted). PostgreSQL needs none of this: its reads are answered
// by the database server while the click thread goes on.
//
// The thread runs only while it is read from (docs/architecture.md: Threads): the first read starts
// it, and a quiet minute with no read stops it, so that an instance nobody looks at has no reader
// thread waking up or holding memory. A read while it stops, or after it died, starts a new one.

import { createLogger, type Logger } from "../../log.ts";
import { startThread, type WorkerThread } from "../start.ts";
import type { LinkLister, LinkPage, LinkSet, LinkTotals } from "../../links/list.ts";
import { checkPaging, everyLink } from "../../links/list.ts";
import type { TagCount } from "../../links/tags.ts";
import type { StatsRows, StatsSource } from "../../stats/link-stats.ts";
import type { DailyRollupRow, OverviewRows, OverviewSource } from "../../stats/overview.ts";
import type { OrphanPage, OrphanSummary, OrphanVisitSource } from "../../stats/orphan-visits.ts";
import type { VisitPage, VisitPageSource, VisitTotals } from "../../stats/visit-pages.ts";
import type { ExportChunk, VisitExportSource } from "../../stats/visit-export.ts";
import type { FromReader, ReadRequest, ReadResult, ToReader } from "./protocol.ts";

export type SqliteReader = { stats: StatsSource; lister: LinkLister; overview: OverviewSource; visitPages: VisitPageSource; visitExport: VisitExportSource; orphanReads: OrphanReads; close(): Promise<void> };
/** The reads of visits to no link (the delete runs on the writer's connection). */
export type OrphanReads = Pick<OrphanVisitSource, "summary" | "page">;

/**
 * How long a stop waits for the reader (docs/architecture.md: Threads): the reads asked before the
 * stop are answered first; the longest, a large link's statistics, takes well under a second.
 */
export const READER_CLOSE_WITHIN_MS = 5_000;
/** With no read for this long the thread stops; the next read starts it again (a start takes milliseconds). */
export const READER_QUIET_MS = 60_000;

/** An error from the reader thread, with the database's code (SQLITE_BUSY, …) that src/db/errors.ts reads. */
class ReadError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
  }
}

type Waiting = Map<number, { resolve: (r: ReadResult) => void; reject: (e: Error) => void }>;
/** One run of the thread: its reads waiting for an answer, failed together when it dies. */
type Run = { thread: Promise<WorkerThread<ToReader, true>>; waiting: Waiting };

/**
 * The reader of the file at path (migrated already). No thread runs until the first read; a read
 * whose thread cannot start (the file cannot be opened) fails with the reason, and the next read
 * tries again. `quietMs`: how long without a read stops the thread (READER_QUIET_MS).
 */
export async function startSqliteReader(path: string, log: Logger = createLogger("text"), quietMs = READER_QUIET_MS): Promise<SqliteReader> {
  let next = 0;
  let run: Run | null = null;
  let closed = false;
  let lastReadAt = 0;
  let quiet: ReturnType<typeof setTimeout> | null = null;
  const forget = (gone: Run) => {
    if (run === gone) run = null;
  };
  const begin = () => startRun(path, log, forget);
  // The quiet timer is set once per quiet period, not per read: at its end it looks at the last read.
  const armQuiet = () => {
    quiet ??= setTimeout(() => {
      quiet = null;
      if (run === null || closed) return;
      const idle = Date.now() - lastReadAt;
      if (idle < quietMs || run.waiting.size > 0) return armQuiet();
      const stopping = run;
      run = null; // a read from now on starts a new thread rather than waiting for this one's stop
      void stopping.thread.then((thread) => thread.close()).catch(() => {});
    }, Math.max(0, quietMs - (Date.now() - lastReadAt)));
  };
  const ask = <R extends ReadResult>(request: ReadRequest): Promise<R> => {
    if (closed) return Promise.reject(new Error("the reader thread is closed"));
    lastReadAt = Date.now();
    const current = (run ??= begin());
    armQuiet();
    return new Promise<R>((resolve, reject) => {
      const id = ++next;
      current.waiting.set(id, { resolve: resolve as (r: ReadResult) => void, reject });
      current.thread.then((thread) => thread.post({ ...request, id } satisfies ToReader), () => {});
    });
  };
  const page = async (query: Parameters<LinkLister["page"]>[0]) => {
    // A query the port refuses fails here, before a message each way. The thread answers an error as
    // well as a result (test/unit/threads.test.ts); what once looked like it hanging after an error
    // was bun's test `expect(p).rejects` waiting on a Worker's pending promise (#39's review).
    checkPaging(query);
    return ask<LinkPage>({ page: query });
  };
  return {
    stats: (linkSeqs, plan) => ask<StatsRows>({ stats: [linkSeqs, plan] }),
    lister: { page, totals: (filter) => ask<LinkTotals>({ totals: filter }), members: (filter) => ask<LinkSet>({ members: filter }), all: (owner, domain) => everyLink(page, owner, domain), tags: (owner) => ask<TagCount[]>({ tags: owner }) },
    overview: {
      read: (owner, first, top, domain) => ask<OverviewRows>({ overview: [owner, first, top, domain] }),
      daily: (seqs, first) => ask<DailyRollupRow[]>({ daily: [seqs, first] }),
    },
    visitPages: { page: (query, writing) => ask<VisitPage>({ visits: [query, writing ?? null] }), totals: (owner) => ask<VisitTotals>({ visitTotals: owner }) },
    visitExport: { chunk: (query) => ask<ExportChunk>({ visitExport: query }) },
    orphanReads: { summary: (range) => ask<OrphanSummary>({ orphanSummary: range }), page: (q) => ask<OrphanPage>({ orphanPage: q }) },
    async close() {
      closed = true;
      if (quiet !== null) clearTimeout(quiet);
      const last = run;
      run = null;
      if (last === null) return;
      const thread = await last.thread.catch(() => null);
      await thread?.close();
      refuse(last.waiting, "the reader thread is closed");
    },
  };
}

// Reads waiting when a run's thread dies fail; the next read starts a new thread.
function refuse(waiting: Waiting, reason: string): void {
  for (const w of waiting.values()) w.reject(new Error(reason));
  waiting.clear();
}

/** Starts a reader thread; `forget` is told when it died or could not start (its waiting reads fail). */
function startRun(path: string, log: Logger, forget: (run: Run) => void): Run {
  const waiting: Waiting = new Map();
  const mine: Run = { waiting, thread: Promise.resolve(null as never) };
  mine.thread = startThread<string, true, true, ToReader, FromReader>({
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
    onFailed: (reason) => {
      forget(mine);
      refuse(waiting, reason);
    },
  }).then(({ thread }) => thread);
  mine.thread.catch((err: Error) => {
    forget(mine);
    log.error("the reader thread could not start; the next read tries again", { error: err.message });
    refuse(waiting, err.message);
  });
  return mine;
}
