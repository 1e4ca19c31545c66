// The query string of GET /api/links, checked: every bad value is a 400 naming its parameter.

import { LINK_STATUSES, type LinkStatus } from "../links/link.ts";
import { decodeCursor, LIST_SORTS, type ListOrder, type ListQuery, type ListSort } from "../links/list.ts";
import { TAG_PATTERN } from "../links/options.ts";
import { MAX_URL_LENGTH } from "../links/url-rules.ts";
import type { FieldProblem } from "./responses.ts";

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** `daily`: add each link's clicks per day of the last 30 (the dashboard's sparklines); the domain is the handler's (by name). */
export type ListParams = Omit<ListQuery, "owner" | "now" | "domain"> & { daily: boolean };

export function parseListQuery(query: URLSearchParams): { ok: true; params: ListParams } | { ok: false; problem: FieldProblem } {
  const bad = (field: FieldProblem["field"], error: string) => ({ ok: false as const, problem: { code: "bad_request" as const, field, error } });
  const q = query.get("q")?.trim() || null;
  if (q !== null && q.length > MAX_URL_LENGTH) return bad("q", `q may be at most ${MAX_URL_LENGTH} characters`);
  // No id or destination holds a control character (the URL rules refuse them), so none can match.
  if (q !== null && (/[\u0000-\u001f\u007f]/.test(q) || !q.isWellFormed())) return bad("q", "q must not contain control characters");
  const tag = query.get("tag")?.trim() || null;
  if (tag !== null && !TAG_PATTERN.test(tag)) return bad("tag", "tag must be 1 to 30 letters, digits, hyphens or underscores");
  const status = query.get("status") || null;
  if (status !== null && !LINK_STATUSES.includes(status as LinkStatus)) return bad("status", `status must be one of ${LINK_STATUSES.join(", ")}`);
  const sort = query.get("sort") || "createdAt";
  if (!LIST_SORTS.includes(sort as ListSort)) return bad("sort", `sort must be one of ${LIST_SORTS.join(", ")}`);
  const order = query.get("order") || "desc";
  if (order !== "asc" && order !== "desc") return bad("order", "order must be asc or desc");
  const limitText = query.get("limit") || String(DEFAULT_PAGE);
  const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE)) return bad("limit", `limit must be a whole number from 1 to ${MAX_PAGE}`);
  const cursorText = query.get("cursor") || null;
  const cursor = cursorText === null ? null : decodeCursor(cursorText, sort as ListSort, order as ListOrder);
  if (cursorText !== null && cursor === null) return bad("cursor", "cursor is not one this list handed out for this sort and order");
  const include = query.get("include") || null;
  if (include !== null && include !== "daily") return bad("include", "include must be daily");
  // owner=NAME: an admin's filter by owner, as the list shows it (a user's or a key's name).
  const ownerName = query.get("owner")?.trim() || null;
  if (ownerName !== null && (ownerName.length > 200 || /[\u0000-\u001f\u007f]/.test(ownerName))) return bad("owner", "owner must be a user's or a key's name");
  return { ok: true, params: { ownerName, q, tag, status: status as LinkStatus | null, sort: sort as ListSort, order: order as ListOrder, limit, cursor, daily: include === "daily" } };
}
