// The YOURLS API's reading actions (docs/yourls-api.md: Actions): expand and url-stats follow
// --stats-access as our statistics do (src/ops/stats/read.ts), stats and db-stats list the links
// the key may see (src/ops/links/list.ts), version names the YOURLS API this one follows.

import type { Actor, Principal } from "../../auth/policy.ts";
import type { Link } from "../../links/link.ts";
import type { ListSort } from "../../links/list.ts";
import { countLinks, listLinks } from "../../ops/links/list.ts";
import { admitStatsReader } from "../../ops/stats/read.ts";
import { PLEASE_LOG_IN, refusal, type YourlsParams } from "./yourls-auth.ts";
import { namedLinkKey, yourlsDate, yourlsTitle, type YourlsContext, type YourlsReply } from "./yourls-link.ts";

/** The YOURLS release whose API this one answers as (its `version` action); clients compare it to decide what they may ask. */
export const YOURLS_VERSION = "1.10.4";
export const YOURLS_DB_VERSION = "507";
const NEED_FORMAT = "Need either XML or JSON format for stats";
const NOT_FOUND = "Error: short URL not found";
/** The most links one stats call gives, and the furthest it reads ahead to skip `start` (ours are read in order, not by offset). */
export const STATS_MAX_LIMIT = 1000;
export const STATS_MAX_START = 10_000;

/** The link named by `shorturl`, if this asker may see where it leads; "refused" when nobody known must log in first. */
async function readableLink(asker: Actor, shorturl: string, ctx: YourlsContext): Promise<{ link: Link | null; keyword: string } | "refused"> {
  const { key, keyword } = namedLinkKey(shorturl, ctx.deps);
  const verdict = await admitStatsReader(key, async () => asker, ctx.deps);
  if (verdict === "auth_required" || verdict === "refused") return "refused";
  // A password keeps where a link leads from whoever may not manage it: as unknown here.
  return { link: typeof verdict === "object" && verdict.destinations ? verdict.link : null, keyword };
}

export async function expandAction(asker: Actor, param: YourlsParams, ctx: YourlsContext): Promise<YourlsReply> {
  const read = await readableLink(asker, param("shorturl") ?? "", ctx);
  if (read === "refused") return refusal(PLEASE_LOG_IN);
  const { link, keyword } = read;
  if (link === null) return { answer: { keyword, simple: "not found", message: NOT_FOUND, errorCode: "404" } };
  return { answer: { keyword: link.id, shorturl: ctx.shortUrl(link), longurl: link.url, title: yourlsTitle(link), simple: link.url, message: "success", statusCode: "200" } };
}

export async function urlStatsAction(asker: Actor, param: YourlsParams, ctx: YourlsContext): Promise<YourlsReply> {
  const read = await readableLink(asker, param("shorturl") ?? "", ctx);
  if (read === "refused") return refusal(PLEASE_LOG_IN);
  if (read.link === null) return { answer: { statusCode: "404", message: NOT_FOUND, simple: NEED_FORMAT } };
  return { answer: { statusCode: "200", message: "success", link: linkStats(read.link, ctx), simple: NEED_FORMAT } };
}

/** A link as YOURLS's stats show one; `ip`, the creator's address, is not kept here. */
function linkStats(link: Link, ctx: YourlsContext): Record<string, string> {
  return { shorturl: ctx.shortUrl(link), url: link.url, title: yourlsTitle(link), timestamp: yourlsDate(link.createdAt), ip: "", clicks: String(link.totalClicks) };
}

const FILTER_ORDER: Record<string, { sort: ListSort; order: "asc" | "desc" }> = {
  top: { sort: "totalClicks", order: "desc" },
  bottom: { sort: "totalClicks", order: "asc" },
  last: { sort: "createdAt", order: "desc" },
};

/** YOURLS's intval: the leading whole number of a text, else 0. */
function wholeNumber(text: string | null): number {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isFinite(n) ? n : 0;
}

export async function statsAction(asker: Actor, param: YourlsParams, ctx: YourlsContext): Promise<YourlsReply> {
  if (asker === null) return refusal(PLEASE_LOG_IN);
  // As YOURLS: no limit given is no links (the totals only); an unknown filter is top.
  const limit = Math.min(Math.max(wholeNumber(param("limit")), 0), STATS_MAX_LIMIT);
  const start = Math.min(Math.max(wholeNumber(param("start")), 0), STATS_MAX_START);
  const filter = param("filter") ?? "";
  const links = limit > 0 ? (filter === "rand" || filter === "random" ? await sample(asker, limit, ctx) : await ranked(asker, FILTER_ORDER[filter] ?? FILTER_ORDER.top!, start, limit, ctx)) : [];
  const listed = links.length === 0 ? {} : { links: Object.fromEntries(links.map((link, i) => [`link_${i + 1}`, linkStats(link, ctx)])) };
  return { answer: { ...listed, stats: await totals(asker, ctx), statusCode: "200", simple: NEED_FORMAT, message: "success" } };
}

/** `limit` links from the `start`th on in one order, read a page at a time. */
async function ranked(asker: Principal, by: { sort: ListSort; order: "asc" | "desc" }, start: number, limit: number, ctx: YourlsContext): Promise<Link[]> {
  const wanted = start + limit;
  const read: Link[] = [];
  let cursor = null;
  do {
    const page = await listLinks(asker, { ownerName: null, q: null, tag: null, status: null, ...by, limit: Math.min(500, wanted - read.length), cursor, daily: false }, ctx.deps);
    if (!page.ok) break;
    read.push(...page.value.links);
    cursor = page.value.next;
  } while (cursor !== null && read.length < wanted);
  return read.slice(start, wanted);
}

/** YOURLS's rand: ours has no random order, so `limit` links drawn from the newest STATS_MAX_LIMIT. */
async function sample(asker: Principal, limit: number, ctx: YourlsContext): Promise<Link[]> {
  const pool = await ranked(asker, FILTER_ORDER.last!, 0, STATS_MAX_LIMIT, ctx);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, limit);
}

/** The links the key may see and their clicks, counted by the database. */
async function totals(asker: Principal, ctx: YourlsContext): Promise<{ total_links: number; total_clicks: number }> {
  const counted = await countLinks(asker, { ownerName: null, q: null, tag: null, status: null, domain: null }, ctx.deps);
  return counted.ok ? { total_links: counted.value.links, total_clicks: counted.value.clicks } : { total_links: 0, total_clicks: 0 };
}

export async function dbStatsAction(asker: Actor, ctx: YourlsContext): Promise<YourlsReply> {
  if (asker === null) return refusal(PLEASE_LOG_IN);
  return { answer: { "db-stats": await totals(asker, ctx), statusCode: "200", simple: NEED_FORMAT, message: "success" } };
}

export function versionAction(asker: Actor, param: YourlsParams): YourlsReply {
  if (asker === null) return refusal(PLEASE_LOG_IN);
  return { answer: { version: YOURLS_VERSION, simple: YOURLS_VERSION, ...(param("db") === "1" ? { db_version: YOURLS_DB_VERSION } : {}) } };
}
