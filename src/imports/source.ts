// What an import reads from another shortener, in terms of our own links and visits. Each source
// (sources/*.ts) reads its peer's API or database and answers these shapes; run.ts does the rest,
// the same for every source.

import type { CardFields } from "../links/card.ts";

/** A link as the source has it. */
export type SourceLink = {
  /** The link's identity there: its code, or domain/code where the source has several domains. */
  key: string;
  /**
   * The domain it answers on there, as the source names it; null: the source's default (or only)
   * domain, which lands on our default. Where it lands here: domains.ts (docs/importing.md: Domains).
   */
  domain: string | null;
  /** The short code, kept exactly (never changed silently: plan.ts reports what cannot be kept); null: none (a CSV row without one) gets a new id. */
  code: string | null;
  /** What the source needs to read the link's history (Kutt's uuid, Bitly's bitlink id); else the key. */
  ref?: string;
  crawlable?: boolean;
  url: string;
  /** ms since the epoch */
  createdAt: number;
  tags: string[];
  expiresAt: number | null;
  validFrom: number | null;
  maxClicks: number | null;
  /** Imported as disabled, with the reason reported (a password the source does not hand out, a ban). */
  disabledBecause: string | null;
  /** The link's title or description as the source has it (null: none); fitted to our rules when planned (plan.ts, src/links/title.ts). */
  title: string | null;
  /** Its preview card as the source has it (a CSV's card_* columns); fitted to our rules when planned (plan.ts, src/links/card-fields.ts fitCard). */
  card?: Partial<CardFields>;
  /** What the source keeps that this shortener does not (Shlink's redirect rules): reported, not stored. */
  dropped: string[];
  /** The source's own click counter, when it has one (YOURLS's and Shlink's can differ from its log). */
  clicks: number | null;
};

/** One click as the source recorded it: our own parsing and bot detection run on it. */
export type SourceVisit = {
  /** SourceLink.key */
  key: string;
  ts: number;
  /** the Referer as the source kept it (a URL, a host, or null for none) */
  referrer: string | null;
  userAgent: string | null;
  /** ISO 3166-1 alpha-2, or null when unknown */
  country: string | null;
  /** the URL visited, when the source kept it (its UTM parameters count) */
  visitedUrl: string | null;
};

/** Counts the source keeps instead of visits (Kutt, Bitly): one link's days. */
export type SourceCounts = {
  key: string;
  /** clicks per UTC day (YYYY-MM-DD) */
  days: { day: string; total: number }[];
  /** per dimension (browser, os, device, country, referrer): the names and their clicks over a period the source chose */
  dimensions: { dimension: "browser" | "os" | "device" | "country" | "referrer"; name: string; total: number }[];
  /** the clicks of that period (each dimension is filled up to it with Unknown) */
  dimensionsTotal: number;
};

/**
 * A page of history and where the source stands after it. `scope` names what the cursor is for
 * (the whole source, or one link); the page and the cursor are written in one transaction, so an
 * interrupted import goes on after the last page written and a finished one adds only what is new.
 */
export type HistoryPage = { cursors: [scope: string, cursor: string][] } & ({ visits: SourceVisit[] } | { counts: SourceCounts[] });

/** The links here from this source, by their key: as the source has them, and their ids here (a cursor per link names the id). */
export type ImportedLinks = ReadonlyMap<string, { link: SourceLink; id: string }>;

/** The cursors an import stored: one by its scope, or every one whose scope begins with a prefix. */
export type StoredCursors = { one(scope: string): Promise<string | null>; all(prefix: string): Promise<Map<string, string>> };

export type ImportSource = {
  /** "shlink", "yourls", "kutt", "bitly" or "csv" */
  kind: string;
  /** Which import this is, remembered with what it wrote: the kind and where (never a secret). */
  identity: string;
  /** Every link, a page at a time. */
  links(): AsyncIterable<SourceLink[]>;
  /** The history after what was imported before (cursors: what is stored, written with each page), for the links given (those here from this source). */
  history?(links: ImportedLinks, cursors: StoredCursors): AsyncIterable<HistoryPage>;
  /** Which history it keeps, for the report: raw visits, or counts. */
  keeps: "visits" | "counts" | "nothing";
  close?(): Promise<void>;
};

/**
 * A failure of the source itself: unreachable, a refused key, a schema it does not know, a page
 * that failed; or `private`, an address the outbound policy refuses (docs/security.md: Security, "Outbound
 * requests"). Its message never quotes what the source answered: the status, the host, the path.
 */
export class SourceError extends Error {
  constructor(message: string, readonly code: "unreachable" | "refused" | "not_found" | "schema" | "failed" | "bad_option" | "private" = "failed") {
    super(message);
  }
}
