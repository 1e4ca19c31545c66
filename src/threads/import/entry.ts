// The import thread's entry point (started by client.ts through ../start.ts, for the dashboard's
// import): the same runImport as `shortener import`, its progress posted a few times a second.

import { openImports } from "../../db/open-storage.ts";
import { openSource } from "../../imports/sources/index.ts";
import { runImport } from "../../imports/run.ts";
import { createProgress } from "../../imports/progress.ts";
import { reportLines } from "../../imports/report.ts";
import { importDestinations } from "../../imports/destinations.ts";
import { baseHostOf } from "../../imports/domains.ts";
import type { FromImportThread, ImportInit } from "./protocol.ts";
import { nameThisThread } from "../policy.ts";
import { serveThread } from "../serve.ts";

// Set by close (the service shutting down): the import ends after the page it is writing.
let stopping = false;
let running: Promise<void> = Promise.resolve();

async function run({ start, db, dbPassword, destinations, env, reach }: ImportInit): Promise<void> {
  const progress = createProgress(null, false);
  const ticker = setInterval(() => post({ progress: progress.snapshot() }), 250);
  try {
    const source = openSource(start.from, start.options, env, reach);
    const target = await openImports(db, dbPassword);
    let report;
    try {
      report = await runImport(source, target.imports, {
        policy: start.policy, dryRun: start.dryRun, history: start.history, owner: start.owner, checkUrl: await importDestinations(destinations), progress,
        domainMap: new Map(start.domainMap), baseHost: baseHostOf(destinations.baseUrl),
        stopping: () => stopping,
      });
    } finally {
      // Closed before the answer: the service waits for it, then its recorder writes to the same file.
      await target.close();
    }
    post({ done: report, lines: reportLines(report) });
  } catch (err) {
    post({ cannotRun: err instanceof Error ? err.message : String(err) });
  } finally {
    clearInterval(ticker);
  }
}

const post = serveThread<ImportInit, true, true, never, FromImportThread>({
  // Ready once it has the import: the run's own failures are its answer (cannotRun), not the
  // thread's. The run starts in the next task, after ready is posted, so that its answers follow it.
  start: (init) => {
    nameThisThread("import");
    running = Bun.sleep(0).then(() => run(init));
    return true;
  },
  close: async (): Promise<true> => {
    stopping = true;
    await running;
    return true;
  },
});
