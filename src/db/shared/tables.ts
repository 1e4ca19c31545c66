// Tables both engines keep and the rules about them that both must follow.

/**
 * The domain of every link until an instance has several (docs/architecture.md: A link's identity):
 * links.domain and retired_ids.domain hold it; a link is (domain, alias), resolved once to its seq.
 */
export const DEFAULT_DOMAIN = "";

/**
 * The tables whose rows belong to one link, by its seq (link_seq): deleting a link deletes its rows
 * in every one of them, in the delete's own transaction. The schema parity test
 * (test/contract/schema.test.ts) fails when a table with a link_seq column is missing here, so a
 * new table of visits or rollups cannot be forgotten by a delete (migration 6 of SQLite's schema
 * exists because one was).
 */
export const LINK_DATA_TABLES = ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup", "import_links"] as const;
