// The dashboard's imports (src/imports/jobs.ts's ImportJobs): one at a time, each on an import
// thread of its own (entry.ts), its progress and result kept in memory for the dialog to poll (the
// last few, until a restart).

import type { Logger } from "../../log.ts";
import { startThread, type WorkerThread } from "../start.ts";
import type { FromImportThread, ImportInit } from "./protocol.ts";
import { importReach, type ImportJob, type ImportJobs } from "../../imports/jobs.ts";
import type { DestinationSettings } from "../../imports/destinations.ts";
import type { ImportReport } from "../../imports/run.ts";

/**
 * How long a stopping service waits for an import to finish its page (docs/architecture.md:
 * Threads); every page written is committed with its place, and the same import goes on from there.
 */
export const IMPORT_CLOSE_WITHIN_MS = 10_000;

const KEPT = 10;

type ImportThread = WorkerThread<never, true>;

/** `allowPrivate`: --import-allow-private (importReach()); `log`: where a thread's death is told. */
export function createImportJobs(
  settings: { db: string; dbPassword: string | null; destinations: DestinationSettings; env: Record<string, string | undefined>; allowPrivate: boolean; log: Logger },
  now = Date.now,
): ImportJobs {
  const jobs = new Map<string, ImportJob>();
  const reach = importReach(settings.allowPrivate);
  // The import under way: its thread once started, and how to stop it.
  let current: { started: Promise<ImportThread | null> } | null = null;
  return {
    reach,
    start(request) {
      if (current !== null) return null;
      const job: ImportJob = { id: crypto.randomUUID(), from: request.from, state: "running", startedAt: now(), progress: { phase: "starting", done: 0, total: null, perSecond: 0 }, lines: [], report: null };
      jobs.set(job.id, job);
      for (const old of [...jobs.keys()].slice(0, Math.max(0, jobs.size - KEPT))) jobs.delete(old);
      const mine = { started: Promise.resolve<ImportThread | null>(null) };
      const finish = (state: ImportJob["state"], lines: string[], report: ImportReport | null) => {
        if (job.state !== "running") return;
        Object.assign(job, { state, lines, report });
        if (report === null) job.progress = { ...job.progress, phase: "failed" };
        if (current === mine) current = null;
        void mine.started.then((thread) => thread?.close());
      };
      mine.started = startThread<ImportInit, true, true, never, FromImportThread>({
        name: "import",
        entry: "threads/import/entry.ts",
        init: { start: request, db: settings.db, dbPassword: settings.dbPassword, destinations: settings.destinations, env: settings.env, reach },
        closeWithinMs: IMPORT_CLOSE_WITHIN_MS,
        log: settings.log,
        onMessage: (msg) => {
          if ("progress" in msg) job.progress = msg.progress;
          else if ("done" in msg) finish(msg.done.outcome, msg.lines, msg.done);
          else finish("failed", [msg.cannotRun], null);
        },
        onFailed: (reason) => finish("failed", [reason], null),
      }).then(
        ({ thread }) => thread,
        (err: Error) => {
          finish("failed", [err.message], null);
          return null;
        },
      );
      current = mine;
      return job;
    },
    get: (id) => jobs.get(id) ?? null,
    async stop() {
      const running = current;
      if (running === null) return;
      await (await running.started)?.close();
    },
  };
}
