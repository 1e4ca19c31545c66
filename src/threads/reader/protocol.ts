// The messages between the click thread (client.ts) and the reader thread (entry.ts), beside the
// lifecycle's (../lifecycle.ts): init is the SQLite file's path, ready and closed are `true`.

import type { ListFilter, ListQuery, LinkPage, LinkSet, LinkTotals, MembersFilter, OwnerFilter } from "../../links/list.ts";
import type { StatsPlan, StatsRows } from "../../stats/link-stats.ts";
import type { DailyRollupRow, OverviewRows } from "../../stats/overview.ts";
import type { TagCount } from "../../links/tags.ts";
import type { VisitPage, VisitPageQuery, VisitPageWriting, VisitTotals } from "../../stats/visit-pages.ts";
import type { ExportChunk, ExportChunkQuery } from "../../stats/visit-export.ts";
import type { OrphanPage, OrphanPageQuery, OrphanRange, OrphanSummary } from "../../stats/orphan-visits.ts";

export type ReadRequest =
  | { stats: [linkSeqs: readonly number[], plan: StatsPlan] }
  | { page: ListQuery }
  | { totals: ListFilter }
  | { tags: OwnerFilter }
  | { overview: [owner: OwnerFilter, first: string, top: number, domain: string | null] }
  | { daily: [seqs: readonly number[], first: string] }
  | { visits: [query: VisitPageQuery, writing: VisitPageWriting | null] }
  | { visitTotals: OwnerFilter }
  // An export of visits (docs/statistics.md: Exporting visits): a chunk, written here.
  | { visitExport: ExportChunkQuery }
  // Visits to no link (docs/statistics.md: Visits to no link)
  | { orphanSummary: OrphanRange }
  | { orphanPage: OrphanPageQuery }
  // The links of a tag or a domain, for the statistics summed over them (docs/statistics.md: Tags and domains)
  | { members: MembersFilter };

export type ToReader = ReadRequest & { id: number };

export type ReadResult = StatsRows | LinkPage | LinkTotals | OverviewRows | DailyRollupRow[] | TagCount[] | VisitPage | VisitTotals | ExportChunk | OrphanSummary | OrphanPage | LinkSet;

export type FromReader = { id: number; result: ReadResult } | { id: number; error: { message: string; code?: string } };
