// The messages between the click thread (client.ts) and the reader thread (entry.ts), beside the
// lifecycle's (../lifecycle.ts): init is the SQLite file's path, ready and closed are `true`.

import type { ListQuery, LinkPage, OwnerFilter } from "../../links/list.ts";
import type { StatsPlan, StatsRows } from "../../stats/link-stats.ts";
import type { OverviewRows } from "../../stats/overview.ts";

export type ReadRequest =
  | { stats: [linkId: string, plan: StatsPlan] }
  | { page: ListQuery }
  | { overview: [owner: OwnerFilter, first: string, top: number] }
  | { daily: [ids: readonly string[], first: string] };

export type ToReader = ReadRequest & { id: number };

export type ReadResult = StatsRows | LinkPage | OverviewRows | { link_id: string; day: string; total: number }[];

export type FromReader = { id: number; result: ReadResult } | { id: number; error: { message: string; code?: string } };
