// What `shortener copy` moves from one engine to the other (docs/postgresql.md: Moving to PostgreSQL
// and back): every table of both schemas is either copied (in this order) or left out with its
// reason. test/contract/copy-plan.test.ts fails when a table of either freshly migrated schema is
// in neither list, so a table added later cannot be forgotten by the copy without anyone noticing.

/** A table as one engine's copy sees it: its columns, in the engine's order. */
export type TableColumns = ReadonlyMap<string, readonly string[]>;

export type CopiedTable = {
  table: string;
  /** rows read and written at once: fewer where a row can be large (a batch of 200 visits, a webhook body) */
  batch: number;
  /** the order rows are read in, when the target needs it (SQLite packs a bucket's visitor keys into rows) */
  orderBy?: string;
};

const ROWS = 5_000;

/**
 * Copied, parents before the rows that point at them (link_tags references links.seq). Ids and
 * counters keep their values: links.seq, api_keys.id, users.id and webhooks.id are referred to by
 * other rows, and list cursors, sessions and webhook signatures outlive the move.
 */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { table: "users", batch: ROWS },
  { table: "api_keys", batch: ROWS },
  { table: "domains", batch: ROWS },
  { table: "links", batch: ROWS },
  { table: "link_tags", batch: ROWS },
  // Share links travel: a token handed out keeps opening the statistics after the move.
  { table: "link_shares", batch: ROWS },
  { table: "retired_ids", batch: ROWS },
  { table: "import_links", batch: ROWS },
  { table: "import_cursors", batch: ROWS },
  // A row holds up to 200 visits as JSON (about 16 kB): 100 rows are under 2 MB.
  { table: "visit_batches", batch: 100 },
  { table: "daily_rollup", batch: ROWS },
  { table: "hourly_rollup", batch: ROWS },
  { table: "dimension_rollup", batch: ROWS },
  { table: "utm_rollup", batch: ROWS },
  // Visits to no link (docs/statistics.md: Visits to no link): raw rows hold up to 200 visits as
  // visit_batches' do, and the day's counts.
  { table: "orphan_batches", batch: 100 },
  { table: "orphan_daily", batch: ROWS },
  { table: "sessions", batch: ROWS },
  { table: "webhooks", batch: ROWS },
  { table: "events", batch: 1_000 },
  { table: "webhook_deliveries", batch: 1_000 },
  { table: "event_marks", batch: ROWS },
  // The day's salt and the visitor keys seen with it travel: the new database deletes them an
  // hour after their day as the old one would, and without them today's returning visitors would
  // count again and a split link's visitors could change variant (docs/postgresql.md: Moving to
  // PostgreSQL and back). Rows are (bucket, visitor): SQLite's packed rows are unpacked and packed
  // again by its copy adapter.
  { table: "visitor_salts", batch: ROWS },
  { table: "visitors_seen", batch: ROWS, orderBy: "bucket" },
];

/** Rows the target's own migrations write; the copy replaces them with the source's. */
export const SEEDED_BY_MIGRATIONS: readonly string[] = ["event_marks"];

/** Tables of either schema that are not copied, and why. */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  sqlite_sequence: "SQLite's own counters behind AUTOINCREMENT: each table's counter is carried over instead",
  links_search: "SQLite's search index of links: rebuilt from the copied links",
  links_search_config: "a shadow table of SQLite's search index",
  links_search_data: "a shadow table of SQLite's search index",
  links_search_docsize: "a shadow table of SQLite's search index",
  links_search_idx: "a shadow table of SQLite's search index",
  links_search_state: "how far SQLite's search index is: set when it is rebuilt",
  shortener_schema: "PostgreSQL's schema version: the target's own migrations set it",
  link_changes: "an hour of changes announced to other instances' link caches: no instance runs on the new database yet",
  live_watches: "which links a running instance's live view watches: instances on the new database make their own",
  instances: "the instances that ran on the source and what they allowed: the new database's instances record themselves at their start",
};

/** Columns that only one engine has, and why the copy leaves them to the target's default. */
export const ONE_ENGINE_COLUMNS: Readonly<Record<string, string>> = {
  "links.answered_clicks": "PostgreSQL's clicks of limited links answered across instances: it counts on from the copied total_clicks",
};

/** A table of shortener's schemas (copied or not); anything else is some other application's. */
export function isShortenerTable(name: string): boolean {
  return LEFT_OUT[name] !== undefined || COPIED_TABLES.some((t) => t.table === name);
}

export type CopyPlan = {
  tables: (CopiedTable & { columns: readonly string[] })[];
  /** tables of neither list (not shortener's: an operator's own table in the same database) */
  unknown: string[];
  /** what makes the copy impossible (the two schemas disagree): a bug of this release */
  problems: string[];
};

/** The tables and columns to copy from a source of these tables into a target of those. */
export function planCopy(source: TableColumns, target: TableColumns): CopyPlan {
  const unknown = [...new Set([...source.keys(), ...target.keys()])].filter((t) => !isShortenerTable(t)).sort();
  const problems: string[] = [];
  const tables: CopyPlan["tables"] = [];
  for (const entry of COPIED_TABLES) {
    const from = source.get(entry.table);
    const to = target.get(entry.table);
    if (from === undefined || to === undefined) {
      problems.push(`table ${entry.table} is missing in the ${from === undefined ? "source" : "target"}`);
      continue;
    }
    const alone = [...from.filter((c) => !to.includes(c)), ...to.filter((c) => !from.includes(c))].filter((c) => ONE_ENGINE_COLUMNS[`${entry.table}.${c}`] === undefined);
    for (const column of alone) problems.push(`column ${entry.table}.${column} is in one database only`);
    tables.push({ ...entry, columns: from.filter((c) => to.includes(c)) });
  }
  return { tables, unknown, problems };
}
