// Messages between the service and the import thread (src/import-thread.ts): the dashboard's
// import runs there, on a connection of its own, so that the thread answering clicks never
// waits for a page of 10,000 visits to be parsed and written.

import type { SourceOptions } from "./sources/index.ts";
import type { ConflictPolicy } from "./plan.ts";
import type { Creator } from "../links/link.ts";
import type { DestinationSettings } from "./destinations.ts";
import type { ImportReport } from "./run.ts";
import type { ProgressSnapshot } from "./progress.ts";
import type { OutboundPolicy } from "../outbound/reach.ts";

export type ImportRequest = {
  from: string;
  options: SourceOptions;
  policy: ConflictPolicy;
  dryRun: boolean;
  history: boolean;
  owner: Creator | null;
};

export type ToImportThread =
  | { start: ImportRequest; db: string; dbPassword: string | null; destinations: DestinationSettings; env: Record<string, string | undefined>; reach: OutboundPolicy }
  | { stop: true };
export type FromImportThread = { progress: ProgressSnapshot } | { done: ImportReport; lines: string[] } | { failed: string };
