// The events a recorded batch of visits writes with it (in its transaction): its clicks per link,
// the milestones their totals passed, and the links whose click limit they reached.

import type { Visit } from "../visits/visit.ts";
import { linkClicks, linkGone, linkMilestone, milestonesCrossed, type EventLinkRef } from "./payloads.ts";
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
    const byLink = new Map<number, { link: EventLinkRef; itemized: Visit[]; omitted: number }>();
    let budget = ITEMIZED_PER_BATCH;
    for (const v of visits) {
      let entry = byLink.get(v.linkSeq);
      if (entry === undefined) byLink.set(v.linkSeq, (entry = { link: { seq: v.linkSeq, id: v.linkId }, itemized: [], omitted: 0 }));
      if (budget > 0) {
        entry.itemized.push(v);
        budget--;
      } else entry.omitted++;
    }
    for (const e of byLink.values()) out.push(linkClicks(e.link, e.itemized, e.omitted, at));
  }
  for (const t of totals) {
    const before = t.total - t.added;
    const link = { seq: t.linkSeq, id: t.linkId };
    if (wants.has("link.milestone")) for (const m of milestonesCrossed(before, t.total)) out.push(linkMilestone(link, m, t.total, at));
    if (wants.has("link.gone") && t.maxClicks !== null && before < t.maxClicks && t.total >= t.maxClicks) out.push(linkGone(link, "click_limit", null, at));
  }
  return out;
}
