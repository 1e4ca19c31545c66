// Visits to no link (docs/statistics.md: Visits to no link): the dashboard's summary.

import { t } from "elysia";
import { ORPHAN_TYPES } from "../../visits/orphans.ts";
import { Count, Day, closed, ok } from "./common.ts";

const Counts = t.Object({ total: Count, humans: Count, bots: Count }, closed);
const OrphanType = t.Union(ORPHAN_TYPES.map((type) => t.Literal(type)), { description: "Shlink's names: base_url (/), invalid_short_url (an unknown alias), regular_404 (any other page not found)" });

export const OrphanSummaryData = t.Object(
  {
    from: Day,
    to: Day,
    counts: Counts,
    byType: t.Object({ base_url: Counts, invalid_short_url: Counts, regular_404: Counts }, closed),
    topPaths: t.Array(t.Object({ type: OrphanType, path: t.String({ description: "the path without its query; Other: the paths past a day's 100" }), total: Count, humans: Count, bots: Count }, closed)),
    byDay: t.Array(t.Object({ date: Day, total: Count, humans: Count }, closed), { description: "days with visits only, oldest first" }),
  },
  closed,
);

export const OrphanSummary = ok(OrphanSummaryData);
