// Messages between the service (client.ts) and the import thread (entry.ts), beside the
// lifecycle's (../lifecycle.ts): the dashboard's import runs there, on a connection of its own, so
// that the thread answering clicks never waits for a page of 10,000 visits to be parsed and written.
// init is the import to run; ready and closed are `true`; close ends the import after its page.

import type { DestinationSettings } from "../../imports/destinations.ts";
import type { ImportReport } from "../../imports/run.ts";
import type { ProgressSnapshot } from "../../imports/progress.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";
import type { ImportRequest } from "../../imports/jobs.ts";

export type ImportInit = { start: ImportRequest; db: string; dbPassword: string | null; destinations: DestinationSettings; env: Record<string, string | undefined>; reach: OutboundPolicy };
/** `cannotRun`: the import could not run (its source refused, the database away), the reason as the command line says it. */
export type FromImportThread = { progress: ProgressSnapshot } | { done: ImportReport; lines: string[] } | { cannotRun: string };
