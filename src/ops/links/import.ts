// Importing links (docs/managing-links.md: Managing links): each row created as a create would make
// it, owned by the principal, every row's outcome reported.

import { creatorOf, type Principal } from "../../auth/policy.ts";
import { createLink, type CreateFields } from "../../links/create.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { destinationRules, type LinkOpsDeps } from "./deps.ts";

// Rows created between yields to the event loop, so that clicks are answered during a long import
// (each create is a transaction of some 30 µs: about a millisecond at a time).
const ROWS_PER_TURN = 25;

/** `rows`: the file's rows (null for one that is not an object); `ownHosts`: as for a create. */
export type ImportInput = { rows: readonly (CreateFields | null)[]; ownHosts: readonly string[] };

/**
 * Rows are numbered from 1. `stopped`: the database refused a write at that row (`error`, as the
 * store threw it); every row created before it is committed, and the client must learn which, or
 * a second attempt would duplicate the generated ids.
 */
export type ImportReport = {
  created: { row: number; id: string }[];
  failed: { row: number; code: string; error: string }[];
  stopped: { row: number; error: unknown } | null;
};

export async function importLinks(actor: Principal, input: ImportInput, deps: Pick<LinkOpsDeps, "config" | "links" | "blocklist" | "log" | "now">): Promise<Outcome<ImportReport>> {
  const rules = destinationRules(input.ownHosts, deps);
  const report: ImportReport = { created: [], failed: [], stopped: null };
  for (let i = 0; i < input.rows.length; i++) {
    const row = i + 1;
    const fields = input.rows[i] ?? null;
    if (fields === null) {
      report.failed.push({ row, code: "bad_request", error: "the row is not an object" });
      continue;
    }
    let result;
    try {
      result = await createLink(deps.links, { ...rules, fields, creator: creatorOf(actor), now: deps.now() });
    } catch (error) {
      logAction(deps.log, actor, "import", null, `storage_unavailable after ${report.created.length} created`);
      return done({ ...report, stopped: { row, error } });
    }
    if (result.ok) report.created.push({ row, id: result.link.id });
    else report.failed.push({ row, code: result.problems[0].code, error: result.problems[0].error });
    if (row % ROWS_PER_TURN === 0) await Bun.sleep(0);
  }
  logAction(deps.log, actor, "import", null, `ok ${report.created.length} created, ${report.failed.length} failed`);
  return done(report);
}
