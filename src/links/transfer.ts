// The record a link is exported as and imported from (README: Managing links). Its first five
// columns are what an import reads, so an export can be imported elsewhere as it is.

import { statusNow, type Link } from "./link.ts";
import { isoTime } from "../util/day.ts";
import type { TransferRecord } from "../api/types.ts";

export const IMPORT_COLUMNS = ["url", "custom_url", "expires_at", "max_clicks", "tags"] as const;
export const EXPORT_COLUMNS = [...IMPORT_COLUMNS, "disabled", "status", "created_at", "total_clicks", "human_clicks", "last_click_at"] as const;

export type { TransferRecord } from "../api/types.ts";

export function transferRecord(link: Link, now: number, answered: number | undefined): TransferRecord {
  return {
    url: link.url,
    custom_url: link.id,
    expires_at: isoTime(link.expiresAt),
    max_clicks: link.maxClicks,
    tags: link.tags,
    disabled: link.disabled,
    status: statusNow(link, answered, now),
    created_at: isoTime(link.createdAt)!,
    total_clicks: link.totalClicks,
    human_clicks: link.humanClicks,
    last_click_at: isoTime(link.lastClickAt),
  };
}

/** The record's values in EXPORT_COLUMNS order, as CSV text wants them. */
export function csvValues(r: TransferRecord): (string | number | null)[] {
  return [r.url, r.custom_url, r.expires_at, r.max_clicks, r.tags.join(","), r.disabled ? "true" : "false", r.status, r.created_at, r.total_clicks, r.human_clicks, r.last_click_at];
}
