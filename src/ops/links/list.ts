// A page of the links the principal may see (docs/managing-links.md: Managing links), with each
// link's clicks per day when asked (the dashboard's sparklines).

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import type { Link } from "../../links/link.ts";
import { linkKey } from "../../domains/link-key.ts";
import type { Cursor, LinkTotals, ListFilter, ListQuery } from "../../links/list.ts";
import { OVERVIEW_DAYS } from "../../stats/overview.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";

/** The list's filters, order and page (whose links: the principal's); `daily`: add the clicks per day. */
export type ListInput = Omit<ListQuery, "owner" | "now"> & { daily: boolean };

/** `daily`: per link key (src/domains/link-key.ts), its clicks on each of the last OVERVIEW_DAYS days (null when not asked). */
export type LinkList = { links: Link[]; next: Cursor | null; daily: Map<string, number[]> | null; now: number };

export async function listLinks(actor: Principal, input: ListInput, deps: Pick<LinkOpsDeps, "lister" | "dailyCounts" | "log" | "now">): Promise<Outcome<LinkList>> {
  const { daily, ...query } = input;
  const now = deps.now();
  const page = await deps.lister.page({ ...query, owner: ownerFilter(actor), now });
  // By key: the same alias may be on the page twice, on two domains.
  const counts = daily ? await deps.dailyCounts(page.links.map((l) => ({ seq: l.seq, id: linkKey(l.domain, l.id) })), now, OVERVIEW_DAYS) : null;
  logAction(deps.log, actor, "list", null, `ok ${page.links.length}`);
  return done({ links: page.links, next: page.next, daily: counts, now });
}

/** The list's filters (whose links: the principal's). */
export type CountInput = Omit<ListFilter, "owner" | "now">;

/** How many links the principal may see match the filters, and their clicks; counted by the database. */
export async function countLinks(actor: Principal, input: CountInput, deps: Pick<LinkOpsDeps, "lister" | "log" | "now">): Promise<Outcome<LinkTotals>> {
  const totals = await deps.lister.totals({ ...input, owner: ownerFilter(actor), now: deps.now() });
  logAction(deps.log, actor, "count", null, `ok ${totals.links}`);
  return done(totals);
}
