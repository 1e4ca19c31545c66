// The events a recorded batch of visits writes with it (in its transaction): its clicks per link,
// the milestones their totals passed, and the links whose click limit they reached.

import type { Visit } from "../visits/visit.ts";
import { linkClicks, linkGone, linkMilestone, milestonesCrossed } from "./payloads.ts";
import type { OutboxEvent } from "./types.ts";
import type { EventWants } from "./wants.ts";

/**
 * Clicks a batch itemizes in its link.clicks events at most (about ten batches a second at full
 * load); the rest are counted per link. A webhook gets at most MAX_CLICKS itemized a second
 * anyway (fan-out.ts): past that, serializing them would only cost the recorder.
 */
export const ITEMIZED_PER_BATCH = 100;

/** A link's total before and after the batch, as its UPDATE answered, and its limit. */
export type TotalAfter = { linkSeq: number; linkId: string; added: number; total: number; maxClicks: number | null };

export function batchEvents(wants: EventWants, visits: readonly Visit[], totals: readonly TotalAfter[], at: number): OutboxEvent[] {
  const out: OutboxEvent[] = [];
  // The clicks first: a receiver hears of them before the milestone or the limit they made.
  if (wants.has("link.clicks")) {
    const byLink = new Map<string, { itemized: Visit[]; omitted: number }>();
    let budget = ITEMIZED_PER_BATCH;
    for (const v of visits) {
      const entry = byLink.get(v.linkId) ?? byLink.set(v.linkId, { itemized: [], omitted: 0 }).get(v.linkId)!;
      if (budget > 0) {
        entry.itemized.push(v);
        budget--;
      } else entry.omitted++;
    }
    for (const [linkId, e] of byLink) out.push(linkClicks(linkId, e.itemized, e.omitted, at));
  }
  for (const t of totals) {
    const before = t.total - t.added;
    if (wants.has("link.milestone")) for (const m of milestonesCrossed(before, t.total)) out.push(linkMilestone(t.linkId, m, t.total, at));
    if (wants.has("link.gone") && t.maxClicks !== null && before < t.maxClicks && t.total >= t.maxClicks) out.push(linkGone(t.linkId, "click_limit", null, at));
  }
  return out;
}
