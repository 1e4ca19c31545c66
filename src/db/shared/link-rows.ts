// How a links row reads as a Link, in both engines: one column list and one mapping for every
// query that returns links (PostgreSQL's adapter first turns its int8 strings into numbers).

import type { Link } from "../../links/link.ts";
import type { Behaviour } from "../../links/behaviour.ts";
import { behaviourOfRow, routingOfRow, type RouteFacts } from "../../links/click-rules.ts";
import { ruleUrls } from "../../links/rules.ts";
import { intentUrls } from "../../links/url-rules.ts";
import { CREDENTIAL_PRINCIPAL_NAME as CREDENTIAL_NAME } from "../../auth/credential.ts";

// The owner's name: the user's, else the key's (the systemd credential has no row: key id 0).
const OWNER_NAME = `COALESCE((SELECT u.name FROM users AS u WHERE u.id = links.owner_user_id),
  (SELECT k.name FROM api_keys AS k WHERE k.id = links.owner_key_id),
  CASE WHEN links.owner_key_id = 0 THEN '${CREDENTIAL_NAME}' END) AS owner`;

/** The columns of a links row read as a Link; the query must name the table `links` (no alias). */
export const LINK_COLUMNS =
  "seq, domain, id, url, created_at, owner_key_id, owner_user_id, expires_at, max_clicks, disabled, blocked, total_clicks, human_clicks, last_click_at, " +
  `rules, variants, password_hash, redirect_type, valid_from, fallback_url, crawlable, title, card_title, card_description, card_image, ${OWNER_NAME}`;

export type LinkRow = {
  seq: number;
  domain: string;
  id: string;
  url: string;
  created_at: number;
  owner_key_id: number | null;
  owner_user_id: number | null;
  owner: string | null;
  expires_at: number | null;
  max_clicks: number | null;
  disabled: number;
  blocked: number;
  total_clicks: number;
  human_clicks: number;
  last_click_at: number;
  valid_from: number | null;
  fallback_url: string | null;
  crawlable: number;
  title: string | null;
  card_title: string | null;
  card_description: string | null;
  card_image: string | null;
} & RouteFacts;

export function toLink(row: LinkRow, tags: string[]): Link {
  return {
    ...behaviourOfRow(row),
    validFrom: row.valid_from,
    fallbackUrl: row.fallback_url,
    crawlable: row.crawlable === 1,
    seq: row.seq,
    domain: row.domain,
    id: row.id,
    url: row.url,
    createdAt: row.created_at,
    ownerKeyId: row.owner_key_id,
    ownerUserId: row.owner_user_id,
    owner: row.owner,
    expiresAt: row.expires_at,
    maxClicks: row.max_clicks,
    disabled: row.disabled === 1,
    blocked: row.blocked === 1,
    tags,
    title: row.title,
    cardTitle: row.card_title,
    cardDescription: row.card_description,
    cardImage: row.card_image,
    totalClicks: row.total_clicks,
    humanClicks: row.human_clicks,
    lastClickAt: row.last_click_at === 0 ? null : row.last_click_at,
  };
}

/** A cache miss's row (links LEFT JOIN retired_ids for one (domain, alias)): what the click path needs. */
export const TARGET_SQL = `SELECT l.seq, l.url, l.expires_at, l.max_clicks, l.disabled, l.blocked, l.total_clicks,
  l.rules, l.variants, l.password_hash, l.redirect_type, l.valid_from, l.fallback_url,
  l.title, l.card_title, l.card_description, l.card_image, r.id IS NOT NULL AS retired
  FROM (SELECT CAST(? AS TEXT) AS domain, CAST(? AS TEXT) AS id) AS q LEFT JOIN links AS l ON l.domain = q.domain AND l.id = q.id
  LEFT JOIN retired_ids AS r ON r.domain = q.domain AND r.id = q.id`;

/** A fetched title, stored only where the link still has none (src/links/store.ts: fillTitle). Parameters: title, domain, alias. */
export const FILL_TITLE_SQL = "UPDATE links SET title = ? WHERE domain = ? AND id = ? AND title IS NULL";
/** The domain and alias of the link with a seq (a peer API's stable id). */
export const KEY_OF_SEQ_SQL = "SELECT domain, id FROM links WHERE seq = ?";

/** The links search engines may follow (robots.txt), by domain and alias. */
export const CRAWLABLE_SQL = "SELECT domain, id FROM links WHERE crawlable = 1 ORDER BY domain, id LIMIT ?";

/**
 * A page of protected links' stored hashes, after a seq (the start-up report of locked links): one
 * walk of the table at start, as the blocklist's, in pages that hold nothing open between them.
 */
export const PASSWORD_HASHES_SQL = "SELECT seq, domain, id, password_hash FROM links WHERE password_hash IS NOT NULL AND seq > ? ORDER BY seq LIMIT ?";
/** Rows a page of PASSWORD_HASHES_SQL reads. */
export const PASSWORD_HASHES_PAGE = 1_000;

/** The behaviour columns of a new link, in BEHAVIOUR_COLUMNS order. */
export const BEHAVIOUR_COLUMNS = "rules, variants, password_hash, redirect_type, valid_from, fallback_url, crawlable";
export function behaviourValues(b: Behaviour): [string | null, string | null, string | null, number, number | null, string | null, number] {
  return [jsonColumn(b.rules), jsonColumn(b.variants), b.passwordHash, b.redirectType, b.validFrom, b.fallbackUrl, b.crawlable ? 1 : 0];
}

/** A JSON column's value: rules and variants as stored (NULL: none). */
export function jsonColumn(value: unknown[] | null): string | null {
  return value === null ? null : JSON.stringify(value);
}

/** The columns the blocklist walk reads of each links row (both engines; otherDestinations reads them). */
export const DESTINATION_COLUMNS = "seq, url, blocked, rules, variants, fallback_url, card_image";

/**
 * The URLs beside its own that a links row can send visitors to or show them: its rules', variants'
 * and fallback, its card's image, and the web pages inside any of them that is an intent: URL (the
 * blocklist walk; docs/sharing.md: Links into apps, Preview cards).
 */
export function otherDestinations(row: Pick<RouteFacts, "rules" | "variants"> & { url: string; fallback_url: string | null; card_image: string | null }): string[] {
  const urls: string[] = [];
  if (row.rules !== null || row.variants !== null) {
    const { rules, variants } = routingOfRow(row);
    urls.push(...ruleUrls(rules, variants));
  }
  if (row.fallback_url !== null) urls.push(row.fallback_url);
  if (row.card_image !== null) urls.push(row.card_image);
  for (const url of [row.url, ...urls]) if (url.startsWith("intent:")) urls.push(...intentUrls(url));
  return urls;
}
