// Every schema migration of both engines, in one ordered list numbered once: step N is the file
// NNN-<what>.ts, which exports the step's `sqlite` and `postgres` sides next to each other, and the
// line `stepNNN` below (docs/architecture.md: Migrations). versions.ts reads them in number order.
//
// The versions databases record: each engine records how many of ITS steps it has applied (SQLite
// in PRAGMA user_version, PostgreSQL in shortener_schema.version), its steps being those of this
// list whose side for it is not null, in order. The numbers recorded before this list existed
// therefore keep their meaning (SQLite's n = steps 1 to n; PostgreSQL's 1 = step 5, which made at
// once what SQLite's steps 1 to 5 make, and its 2 to 6 = steps 7 to 11), no step runs twice or is
// skipped, an engine's number moves only when its schema changes, and an older release still
// refuses a database newer than it knows.
//
// Adding a step: one new file with the next number (both sides, or null for an engine it does not
// concern) and its line at the end below. Never edit, reorder or remove a step that has shipped,
// nor give one a side it did not have: that would change what a recorded version means.

export * as step001 from "./001-links-and-rollups.ts";
export * as step002 from "./002-visit-batches.ts";
export * as step003 from "./003-keys-and-link-state.ts";
export * as step004 from "./004-sessions.ts";
export * as step005 from "./005-unique-visitors.ts";
export * as step006 from "./006-hourly-rollups-of-deleted-links.ts";
export * as step007 from "./007-redirect-rules.ts";
export * as step008 from "./008-users.ts";
export * as step009 from "./009-imports.ts";
export * as step010 from "./010-events.ts";
export * as step011 from "./011-instances.ts";
export * as step012 from "./012-links-by-seq.ts";
export * as step013 from "./013-domains.ts";
export * as step014 from "./014-link-titles.ts";
export * as step015 from "./015-share-cards.ts";
export * as step016 from "./016-share-links.ts";
export * as step017 from "./017-orphan-visits.ts";
