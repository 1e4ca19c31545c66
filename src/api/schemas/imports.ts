// Export and import (docs/importing.md: Moving from another shortener): transfer records, rows, jobs.

import { t } from "elysia";
import { ERROR_CODES } from "../../errors.ts";
import { LINK_STATUSES } from "../../links/link.ts";
import { Count, NullableTime, Tag, Time, closed, errorFields, ok, oneOf } from "./common.ts";
import { RedirectType, Rules, Variants } from "./links.ts";

export const TransferRecord = t.Object(
  {
    url: t.String(),
    custom_url: t.String({ description: "the link's id" }),
    expires_at: NullableTime,
    max_clicks: t.Union([t.Integer({ minimum: 1 }), t.Null()]),
    tags: t.Array(Tag),
    disabled: t.Boolean(),
    status: oneOf(LINK_STATUSES),
    created_at: Time,
    total_clicks: Count,
    human_clicks: Count,
    last_click_at: NullableTime,
    rules: t.Union([Rules, t.Null()]),
    variants: t.Union([Variants, t.Null()]),
    password_hash: t.Union([t.String({ description: "the argon2id hash of the link's password, so an import keeps it" }), t.Null()]),
    redirect_type: RedirectType,
    valid_from: NullableTime,
    fallback_url: t.Union([t.String(), t.Null()]),
    crawlable: t.Boolean(),
    domain: t.Union([t.String(), t.Null()], { description: "its domain's name; null on the default domain of an instance that knows no name" }),
    title: t.Union([t.String(), t.Null()], { description: "the link's title; null for none" }),
    card_title: t.Union([t.String(), t.Null()], { description: "the preview card's title; null for none" }),
    card_description: t.Union([t.String(), t.Null()], { description: "the preview card's description; null for none" }),
    card_image: t.Union([t.String(), t.Null()], { description: "the preview card's image URL; null for none" }),
  },
  closed,
);
export const ExportJson = t.Array(TransferRecord);

export const ImportRows = t.Array(
  t.Object({
    url: t.String(), custom_url: t.Optional(t.String()), expires_at: t.Optional(t.String()), max_clicks: t.Optional(t.Union([t.Integer(), t.String()])),
    tags: t.Optional(t.Union([t.Array(t.String()), t.String()])),
    rules: t.Optional(t.Union([Rules, t.String(), t.Null()])), variants: t.Optional(t.Union([Variants, t.String(), t.Null()])),
    password: t.Optional(t.String()), password_hash: t.Optional(t.Union([t.String(), t.Null()])),
    redirect_type: t.Optional(t.Union([t.Integer(), t.String()])), valid_from: t.Optional(t.Union([t.String(), t.Null()])),
    fallback_url: t.Optional(t.Union([t.String(), t.Null()])), crawlable: t.Optional(t.Union([t.Boolean(), t.String()])),
    domain: t.Optional(t.Union([t.String({ description: "a domain's name; empty or absent: the default" }), t.Null()])),
    title: t.Optional(t.Union([t.String({ description: "the link's title; empty or absent: none" }), t.Null()])),
    card_title: t.Optional(t.Union([t.String({ description: "the preview card's title; empty or absent: none" }), t.Null()])),
    card_description: t.Optional(t.Union([t.String({ description: "the preview card's description; empty or absent: none" }), t.Null()])),
    card_image: t.Optional(t.Union([t.String({ description: "the preview card's image, an http(s) URL; empty or absent: none" }), t.Null()])),
    ios_url: t.Optional(t.Union([t.String({ description: "iosUrl: a first rule os=ios applied onto this row's rules; empty or absent: none" }), t.Null()])),
    android_url: t.Optional(t.Union([t.String({ description: "androidUrl: a first rule os=android applied onto this row's rules; empty or absent: none" }), t.Null()])),
  }),
  { maxItems: 10_000 },
);
const rowOutcomes = {
  created: t.Array(t.Object({ row: t.Integer({ minimum: 1 }), id: t.String(), domain: t.Union([t.String(), t.Null()]), shortUrl: t.String() }, closed)),
  failed: t.Array(t.Object({ row: t.Integer({ minimum: 1 }), code: oneOf(ERROR_CODES), error: t.String() }, closed)),
};
export const ImportOutcome = ok(t.Object(rowOutcomes, closed));
/** The one error that carries data: an import the disk stopped says how far it got. */
export const ImportStopped = t.Object(
  { ...errorFields, data: t.Object({ ...rowOutcomes, stoppedAtRow: t.Integer({ minimum: 1, description: "the row the disk refused; rows before it are done" }) }, closed) },
  { ...closed, description: "storage_unavailable part-way through an import: the outcome so far" },
);

/** POST /api/imports: an import from another shortener (docs/importing.md: Moving from another shortener). */
export const ImportRequest = t.Object(
  {
    from: t.Union([t.Literal("shlink"), t.Literal("yourls"), t.Literal("kutt"), t.Literal("bitly"), t.Literal("csv")]),
    url: t.Optional(t.String({ description: "shlink, kutt: where it answers" })),
    apiKey: t.Optional(t.String({ description: "shlink, kutt: its API key (never stored, never logged)" })),
    sourceDb: t.Optional(t.String({ description: "yourls: mysql://user:password@host/database (read only)" })),
    prefix: t.Optional(t.String({ description: "yourls: the table prefix (default yourls_)" })),
    token: t.Optional(t.String({ description: "bitly: an access token" })),
    group: t.Optional(t.String({ description: "bitly: a group guid (default every group)" })),
    csv: t.Optional(t.String({ description: "csv: the file's text" })),
    map: t.Optional(t.String({ description: "csv: our field=its column, comma-separated (domain=COLUMN: each row's domain)" })),
    domainMap: t.Optional(
      t.Union([t.Record(t.String(), t.String()), t.String()], {
        description: 'a source domain onto one of ours ("default": our default domain), as {"old.example": "new.example"} or "old=new,..." (docs/importing.md: Domains); without it a source domain lands on ours of its name, added when missing',
      }),
    ),
    onConflict: t.Optional(t.Union([t.Literal("fail"), t.Literal("skip"), t.Literal("rename")])),
    dryRun: t.Optional(t.Boolean()),
    visits: t.Optional(t.Boolean({ description: "the click history too" })),
  },
  closed,
);
export const ImportJob = ok(
  t.Object(
    {
      id: t.String(),
      from: t.String(),
      state: t.Union([t.Literal("running"), t.Literal("done"), t.Literal("refused"), t.Literal("stopped"), t.Literal("failed")]),
      startedAt: Time,
      progress: t.Object({ phase: t.String(), done: Count, total: t.Union([Count, t.Null()]), perSecond: Count }, closed),
      lines: t.Array(t.String(), { description: "the result as `shortener import` prints it" }),
      summary: t.Union([
        t.Null(),
        t.Object({ linksRead: Count, created: Count, already: Count, skipped: Count, renamed: Count, problems: Count, visits: Count, clicksCounted: Count,
          domainsAdded: t.Array(t.String(), { description: "domains of the source added here for its links (a dry run: those it would add)" }) }, closed),
      ]),
    },
    closed,
  ),
);
