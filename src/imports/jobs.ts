// The dashboard's imports: one at a time, each on the import thread (src/import-thread.ts), its
// progress and result kept in memory for the dialog to poll (the last few, until a restart).

import { threadEntry } from "../util/thread-entry.ts";
import type { FromImportThread, ImportRequest, ToImportThread } from "./thread-protocol.ts";
import type { DestinationSettings } from "./destinations.ts";
import type { ImportReport } from "./run.ts";
import type { ProgressSnapshot } from "./progress.ts";
import type { OutboundPolicy } from "../outbound/reach.ts";

export type ImportJob = {
  id: string;
  from: string;
  /** running, then done (the report's outcome: done, refused or stopped), or failed (the thread could not run it) */
  state: "running" | "done" | "refused" | "stopped" | "failed";
  startedAt: number;
  progress: ProgressSnapshot;
  /** the report as the command line prints it */
  lines: string[];
  report: ImportReport | null;
};

export type ImportJobs = {
  /** Where its imports may connect: checked when one is asked for, and again by the thread when it connects. */
  readonly reach: OutboundPolicy;
  /** A new job, or null while another runs. */
  start(request: ImportRequest): ImportJob | null;
  get(id: string): ImportJob | null;
  /** Ends a running import after the page it is writing (the service is stopping); resolves when its thread is gone. */
  stop(): Promise<void>;
};

/** How long a stopping service waits for an import to finish its page. */
const STOP_WAIT_MS = 10_000;

const KEPT = 10;

/** The policy the dashboard's imports connect under: special-purpose addresses only with --import-allow-private (docs/importing.md: Moving from another shortener). */
export function importReach(allowPrivate: boolean): OutboundPolicy {
  return { allowSpecial: allowPrivate, flag: "--import-allow-private" };
}

/** `reach`: where the dashboard's imports may connect (importReach()). */
export function createImportJobs(
  settings: { db: string; dbPassword: string | null; destinations: DestinationSettings; env: Record<string, string | undefined>; reach: OutboundPolicy },
  now = Date.now,
): ImportJobs {
  const jobs = new Map<string, ImportJob>();
  let worker: Worker | null = null;
  let ended: Promise<void> = Promise.resolve();
  return {
    reach: settings.reach,
    start(request) {
      if (worker !== null) return null;
      const job: ImportJob = { id: crypto.randomUUID(), from: request.from, state: "running", startedAt: now(), progress: { phase: "starting", done: 0, total: null, perSecond: 0 }, lines: [], report: null };
      jobs.set(job.id, job);
      for (const old of [...jobs.keys()].slice(0, Math.max(0, jobs.size - KEPT))) jobs.delete(old);
      const thread = (worker = new Worker(threadEntry("import-thread.ts")));
      let over: () => void = () => {};
      ended = new Promise((resolve) => (over = resolve));
      const finish = (state: ImportJob["state"], lines: string[], report: ImportReport | null) => {
        Object.assign(job, { state, lines, report });
        if (report === null) job.progress = { ...job.progress, phase: "failed" };
        if (worker === thread) worker = null;
        thread.terminate();
        over();
      };
      thread.onmessage = (event: MessageEvent<FromImportThread>) => {
        const msg = event.data;
        if ("progress" in msg) job.progress = msg.progress;
        else if ("done" in msg) finish(msg.done.outcome, msg.lines, msg.done);
        else finish("failed", [msg.failed], null);
      };
      thread.onerror = (event) => finish("failed", [`the import thread stopped: ${event.message}`], null);
      thread.postMessage({ start: request, db: settings.db, dbPassword: settings.dbPassword, destinations: settings.destinations, env: settings.env, reach: settings.reach } satisfies ToImportThread);
      return job;
    },
    get: (id) => jobs.get(id) ?? null,
    async stop() {
      const thread = worker;
      if (thread === null) return;
      thread.postMessage({ stop: true } satisfies ToImportThread);
      await Promise.race([ended, Bun.sleep(STOP_WAIT_MS)]);
      thread.terminate();
    },
  };
}
