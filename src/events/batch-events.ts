// The events a recorded batch of visits writes with it (in its transaction): its clicks per link,
// the milestones their totals passed, and the links whose click limit they reached.

import type { Visit } from "../visits/visit.ts";
import { linkClicks, linkGone, linkMilestone, milestonesCrossed } from "./payloads.ts";
import type { OutboxEvent } from "./types.ts";
import type { EventWants } from "./wants.ts";

/** A link's total before and after the batch, as its UPDATE answered, and its limit. */
export type TotalAfter = { linkId: string; added: number; total: number; maxClicks: number | null };

export function batchEvents(wants: EventWants, visits: readonly Visit[], totals: readonly TotalAfter[], at: number): OutboxEvent[] {
  const out: OutboxEvent[] = [];
  // The clicks first: a receiver hears of them before the milestone or the limit they made.
  if (wants.has("link.clicks")) {
    const byLink = new Map<string, Visit[]>();
    for (const v of visits) {
      const list = byLink.get(v.linkId);
      if (list) list.push(v);
      else byLink.set(v.linkId, [v]);
    }
    for (const [linkId, list] of byLink) out.push(linkClicks(linkId, list, at));
  }
  for (const t of totals) {
    const before = t.total - t.added;
    if (wants.has("link.milestone")) for (const m of milestonesCrossed(before, t.total)) out.push(linkMilestone(t.linkId, m, t.total, at));
    if (wants.has("link.gone") && t.maxClicks !== null && before < t.maxClicks && t.total >= t.maxClicks) out.push(linkGone(t.linkId, "click_limit", null, at));
  }
  return out;
}
