// What an import needs of the database (the port; src/db/<engine>/imports.ts are the adapters).
// Each write is one transaction that also records how far the import got, so a re-run skips what
// is there and an interrupted run goes on after the last transaction committed.

import type { NewLink } from "../links/store.ts";
import type { Visit } from "../visits/visit.ts";
import type { DailyRow, DimensionRow } from "../visits/rollup.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { Domain } from "../domains/domain.ts";

/**
 * A link an import made: its key (linkKey: its alias, alias@domain off the default domain), and its
 * seq, which its history is written under (docs/architecture.md: A link's identity).
 */
export type ImportedLink = { id: string; seq: number };

/** A link to insert for an import: under `id` on `link.domain`, created when the source says, remembered as `key`. */
export type ImportedLinkRow = { key: string; id: string; createdAt: number; disabled: boolean; link: NewLink };

/** Counts a source keeps instead of visits, as rows of our rollups, and what they add to a link's totals. */
export type CountRows = { daily: DailyRow[]; dimensions: DimensionRow[]; totals: Map<number, { total: number; humans: number; lastTs: number }> };

/** Where an import stands in its source, for one scope (the whole source, or a link). */
export type Cursor = [scope: string, cursor: string];

export type ImportTarget = {
  /** The source's keys imported before (and still here), and our links for them. */
  importedLinks(source: string): MaybePromise<Map<string, ImportedLink>>;
  /** Of these aliases on their stored domains, by their key (linkKey), those that are taken: by a link, or retired (a deleted link's). */
  takenIds(links: readonly { domain: string; id: string }[]): MaybePromise<Map<string, "taken" | "retired">>;
  /** The domains kept here (DomainRepository.settings: no link is counted). */
  domains(): MaybePromise<readonly Domain[]>;
  /** Adds a domain a source's links land on, with the instance's settings, not the default; false when it is kept already. */
  addDomain(name: string, now: number): MaybePromise<boolean>;
  /** Inserts the links and remembers their keys, in one transaction; answers the keys whose id was taken meanwhile (not inserted). */
  addLinks(source: string, links: readonly ImportedLinkRow[]): MaybePromise<string[]>;
  cursor(source: string, scope: string): MaybePromise<string | null>;
  /**
   * Sets a cursor only if it still holds `expected` (null: there is none); `next` null deletes it.
   * True when it did: what two runs of one import agree on (lease.ts).
   */
  swapCursor(source: string, scope: string, expected: string | null, next: string | null): MaybePromise<boolean>;
  /** Every cursor of the source whose scope begins with prefix, by scope. */
  cursors(source: string, prefix: string): MaybePromise<Map<string, string>>;
  /** Writes the visits (marked imported, no unique visitors) and moves the cursors, in one transaction. */
  addVisits(source: string, cursors: readonly Cursor[], visits: Visit[]): MaybePromise<void>;
  /** Adds the counts and moves the cursors, in one transaction. */
  addCounts(source: string, cursors: readonly Cursor[], counts: CountRows): MaybePromise<void>;
};
