// The dashboard's imports: one at a time, each on the import thread (src/threads/import/), its
// progress and result kept in memory for the dialog to poll (the last few, until a restart).

import type { SourceOptions } from "./sources/index.ts";
import type { ConflictPolicy } from "./plan.ts";
import type { Creator } from "../links/link.ts";
import type { ImportReport } from "./run.ts";
import type { ProgressSnapshot } from "./progress.ts";
import type { OutboundPolicy } from "../outbound/reach.ts";

/** An import the dashboard asks for. */
export type ImportRequest = {
  from: string;
  options: SourceOptions;
  policy: ConflictPolicy;
  dryRun: boolean;
  history: boolean;
  /** --domain-map's entries (domains.ts), as they cross to the import thread */
  domainMap: [source: string, ours: string][];
  owner: Creator | null;
};

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

/** The policy the dashboard's imports connect under: special-purpose addresses only with --import-allow-private (docs/importing.md: Moving from another shortener). */
export function importReach(allowPrivate: boolean): OutboundPolicy {
  return { allowSpecial: allowPrivate, flag: "--import-allow-private" };
}
