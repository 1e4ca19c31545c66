// The messages between the click thread (reader.ts) and the reader thread (src/reader-thread.ts).

import type { ListQuery, LinkPage, OwnerFilter } from "../../links/list.ts";
import type { StatsPlan, StatsRows } from "../../stats/link-stats.ts";
import type { OverviewRows } from "../../stats/overview.ts";

export type ReadRequest =
  | { stats: [linkId: string, plan: StatsPlan] }
  | { page: ListQuery }
  | { overview: [owner: OwnerFilter, first: string, top: number] }
  | { daily: [ids: readonly string[], first: string] };

export type ToReader = { open: string } | { close: true } | (ReadRequest & { id: number });

export type ReadResult = StatsRows | LinkPage | OverviewRows | { link_id: string; day: string; total: number }[];

export type FromReader =
  | { ready: true }
  | { failed: string }
  | { closed: true }
  | { id: number; result: ReadResult }
  | { id: number; error: { message: string; code?: string } };
