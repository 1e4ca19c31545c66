// Tables both engines keep and the rules about them that both must follow.

/** The default domain's stored name (src/domains/domain.ts). */
export { DEFAULT_DOMAIN } from "../../domains/domain.ts";

/**
 * The tables whose rows belong to one link, by its seq (link_seq): deleting a link deletes its rows
 * in every one of them, in the delete's own transaction. The schema parity test
 * (test/contract/schema.test.ts) fails when a table with a link_seq column is missing here, so a
 * new table of visits or rollups cannot be forgotten by a delete (migration 6 of SQLite's schema
 * exists because one was).
 */
export const LINK_DATA_TABLES = ["visit_batches", "daily_rollup", "hourly_rollup", "dimension_rollup", "utm_rollup", "import_links", "link_shares"] as const;
