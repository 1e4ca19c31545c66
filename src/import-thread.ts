// The import thread's entry point (a Worker started by src/http/imports.ts for the dashboard's
// import): the same runImport as `shortener import`, its progress posted a few times a second.

import { openImports } from "./db/open-storage.ts";
import { openSource } from "./imports/sources/index.ts";
import { runImport } from "./imports/run.ts";
import { createProgress } from "./imports/progress.ts";
import { reportLines } from "./imports/report.ts";
import { importDestinations } from "./imports/destinations.ts";
import type { FromImportThread, ToImportThread } from "./imports/thread-protocol.ts";
import { nameThisThread } from "./util/thread-policy.ts";

declare const self: Worker;
const post = (msg: FromImportThread) => self.postMessage(msg);

// Set by a stop (the service shutting down): the import ends after the page it is writing.
let stopping = false;

self.onmessage = async (event: MessageEvent<ToImportThread>) => {
  if ("stop" in event.data) {
    stopping = true;
    return;
  }
  const { start, db, dbPassword, destinations, env, reach } = event.data;
  nameThisThread("import");
  const progress = createProgress(null, false);
  const ticker = setInterval(() => post({ progress: progress.snapshot() }), 250);
  try {
    const source = openSource(start.from, start.options, env, reach);
    const target = await openImports(db, dbPassword);
    let report;
    try {
      report = await runImport(source, target.imports, {
        policy: start.policy, dryRun: start.dryRun, history: start.history, owner: start.owner, checkUrl: await importDestinations(destinations), progress,
        stopping: () => stopping,
      });
    } finally {
      // Closed before the answer: the service waits for it, then its recorder writes to the same file.
      await target.close();
    }
    post({ done: report, lines: reportLines(report) });
  } catch (err) {
    post({ failed: err instanceof Error ? err.message : String(err) });
  } finally {
    clearInterval(ticker);
  }
};
