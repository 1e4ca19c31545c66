// The import operations (src/ops/imports) in process, on a temp SQLite file: an import run here
// (the command line's) writes the links as nobody's for the operator and as the admin's for an
// admin; nobody and a create key are refused before a source is opened or a job started.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { importHere } from "../../src/ops/imports/run.ts";
import { importJob, startImport, type ImportsDeps } from "../../src/ops/imports/start.ts";
import { openSource } from "../../src/imports/sources/index.ts";
import { importDestinations } from "../../src/imports/destinations.ts";
import { createProgress } from "../../src/imports/progress.ts";
import { OPERATOR_REACH } from "../../src/outbound/reach.ts";
import { importReach, type ImportJobs } from "../../src/imports/jobs.ts";
import { OPERATOR } from "../../src/auth/policy.ts";
import { adminKey, allowedActors, keptLog, refusedActors, tempStorage, type Opened } from "./support.ts";

let opened: Opened;
let log: ReturnType<typeof keptLog>;

beforeEach(async () => {
  opened = await tempStorage();
  log = keptLog();
});
afterEach(() => opened.dispose());

const CSV = "url,custom_url\nhttps://example.com/a,imp-a\n";

async function here(actor: Parameters<typeof importHere>[0]) {
  const checkUrl = await importDestinations({ baseUrl: null, allowLocal: false, blocklist: null });
  const source = openSource("csv", { "csv-text": CSV }, {}, OPERATOR_REACH);
  return importHere(actor, { from: "csv", source, policy: "fail", dryRun: false, history: false, domainMap: new Map() }, { target: opened.storage.imports, log, checkUrl, baseHost: null, progress: createProgress(null, false) });
}

describe("an import run here", () => {
  test("the operator's links belong to nobody, and the audit line names the operator", async () => {
    const byOperator = await here(OPERATOR);
    expect(byOperator.ok && [byOperator.value.outcome, byOperator.value.links.created]).toEqual(["done", 1]);
    const link = await opened.storage.links.get("imp-a");
    expect([link?.ownerKeyId, link?.ownerUserId]).toEqual([null, null]);
    expect(log.actions()).toEqual([{ key: "operator", action: "import", id: null, result: "done from csv" }]);
  });

  test.each(refusedActors)("%s is refused (%s) and nothing is written", async (_, actor, code) => {
    const refused = await here(actor);
    expect(refused.ok ? "done" : refused.problem.code).toBe(code);
    expect(await opened.storage.links.get("imp-a")).toBeNull();
  });
});

describe("an import on the import thread", () => {
  // Nothing here may start a thread: every case is refused before a job starts.
  const jobs: ImportJobs = { reach: importReach(false), start: () => { throw new Error("no job may start"); }, get: () => null, stop: async () => {} };
  const deps: ImportsDeps = { imports: jobs, log: keptLog() };
  const asked = { from: "csv", options: { "csv-text": CSV }, policy: "fail" as const, dryRun: true, history: false };

  test.each(refusedActors)("%s may not start one or look at one (%s)", async (_, actor, code) => {
    const outcomes = [await startImport(actor, asked, deps), await importJob(actor, { id: "x" }, deps)];
    expect(outcomes.map((o) => (o.ok ? "done" : o.problem.code))).toEqual([code, code]);
  });

  test.each(allowedActors)("%s is told what the source lacks, and of an import that is not there", async (_, actor) => {
    const outcomes = [await startImport(actor, { ...asked, from: "shlink", options: {} }, deps), await importJob(actor, { id: "x" }, deps)];
    expect(outcomes.map((o) => (o.ok ? "done" : o.problem.code))).toEqual(["bad_request", "not_found"]);
  });

  test("a source at a private address is url_private, on the request's field", async () => {
    const started = await startImport(adminKey, { ...asked, from: "shlink", options: { url: "http://10.0.0.1", "api-key": "k" } }, deps);
    expect(started.ok ? null : [started.problem.code, started.problem.field]).toEqual(["url_private", "url"]);
  });
});
