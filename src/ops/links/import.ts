// Importing links (docs/managing-links.md: Managing links): each row created as a create would make
// it, owned by the principal, every row's outcome reported.

import { creatorOf, type Principal } from "../../auth/policy.ts";
import { aliasRefused, checkCreate, type CreateFields } from "../../links/create.ts";
import type { NewLink } from "../../links/store.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { destinationRules, type LinkOpsDeps } from "./deps.ts";
import { creationDomain } from "./domain.ts";

// Rows checked and then written in one transaction, a slice at a time: over SQLite the thread
// that answers clicks writes them. A commit a row cost it some 120 µs of CPU a row; a commit a slice,
// about 50. Between slices the thread is left to clicks for twice as long as the slice held it, so
// an import takes at most a third of it whatever the load: imports looping back to back pushed the
// clicks' p99 to 2.6× the quiet one (docs/performance.md: Imports and clicks).
export const ROWS_PER_WRITE = 16;
const PAUSE_PER_WORK = 2;

/** `rows`: the file's rows (null for one that is not an object); `ownHosts`: as for a create. */
export type ImportInput = { rows: readonly (CreateFields | null)[]; ownHosts: readonly string[] };

/**
 * Rows are numbered from 1. `stopped`: the database refused a write at that row (`error`, as the
 * store threw it); every row created before it is committed, and the client must learn which, or
 * a second attempt would duplicate the generated ids.
 */
export type ImportReport = {
  /** `domain`: the stored one ('' for the default) */
  created: { row: number; id: string; domain: string }[];
  failed: { row: number; code: string; error: string }[];
  stopped: { row: number; error: unknown } | null;
};

export async function importLinks(actor: Principal, input: ImportInput, deps: Pick<LinkOpsDeps, "config" | "links" | "directory" | "blocklist" | "log" | "now">): Promise<Outcome<ImportReport>> {
  const rules = destinationRules(input.ownHosts, deps);
  const report: ImportReport = { created: [], failed: [], stopped: null };
  const pause = pacing();
  for (let first = 0; first < input.rows.length; first += ROWS_PER_WRITE) {
    if (first > 0) await pause();
    const now = deps.now();
    // The slice's rows that pass every check, with their row numbers (from 1).
    const valid: { row: number; link: NewLink }[] = [];
    for (let i = first; i < Math.min(first + ROWS_PER_WRITE, input.rows.length); i++) {
      const fields = input.rows[i] ?? null;
      // A row's domain by its name, as a create's (src/ops/links/domain.ts): unknown or not open to the importer, that row's failure.
      const domain = fields === null ? null : creationDomain(fields.domain === "" ? null : fields.domain, actor, deps.directory);
      if (domain !== null && !domain.ok) {
        report.failed.push({ row: i + 1, code: domain.problem.code, error: domain.problem.message });
        continue;
      }
      const checked = fields === null || domain === null ? null : await checkCreate({ ...rules, fields, creator: creatorOf(actor), domain: domain.value.key, now });
      if (checked === null) report.failed.push({ row: i + 1, code: "bad_request", error: "the row is not an object" });
      else if (!checked.ok) report.failed.push({ row: i + 1, code: checked.problems[0]!.code, error: checked.problems[0]!.error });
      else valid.push({ row: i + 1, link: checked.link });
    }
    if (valid.length === 0) continue;
    let outcomes;
    try {
      outcomes = await deps.links.createAll(valid.map((v) => v.link), now);
    } catch (error) {
      // Nothing of the slice is committed: the import stopped at its first row to be written, and
      // says what became of the rows before it alone.
      const row = valid[0]!.row;
      logAction(deps.log, actor, "import", null, `storage_unavailable after ${report.created.length} created`);
      return done({ ...report, failed: inRowOrder(report.failed.filter((f) => f.row < row)), stopped: { row, error } });
    }
    outcomes.forEach((outcome, i) => {
      const { row, link } = valid[i]!;
      if (typeof outcome !== "string") return void report.created.push({ row, id: outcome.id, domain: outcome.domain });
      const refused = aliasRefused(link.alias!, outcome);
      if (!refused.ok) report.failed.push({ row, code: refused.problems[0].code, error: refused.problems[0].error });
    });
  }
  logAction(deps.log, actor, "import", null, `ok ${report.created.length} created, ${report.failed.length} failed`);
  return done({ ...report, failed: inRowOrder(report.failed) });
}

/** Waits twice as long as the work since the last wait took (at least a turn of the event loop). */
function pacing(): () => Promise<void> {
  let workFrom = performance.now();
  let owed = 0;
  return async () => {
    owed += PAUSE_PER_WORK * (performance.now() - workFrom);
    // Bun.sleep counts whole milliseconds: the rest is owed until it makes one.
    const ms = Math.floor(owed);
    owed -= ms;
    await Bun.sleep(ms);
    workFrom = performance.now();
  };
}

/** A slice's refused aliases are known after its checks: the report lists failures by row, as before. */
function inRowOrder(failed: ImportReport["failed"]): ImportReport["failed"] {
  return failed.sort((a, b) => a.row - b.row);
}
