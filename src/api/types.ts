// The TypeScript types of the API's shapes, derived from their schemas (schemas.ts): what the
// service answers and what the web UI reads have one definition, the one the contract checks.
// Type-only: importing this from the browser bundle adds nothing to it.

import type { Static } from "@sinclair/typebox";
import type * as S from "./schemas.ts";

/** The `data` of a `{success: true, data}` answer. */
type Data<Answer> = Answer extends { success: true; data: infer D } ? D : never;

export type NameCount = Static<typeof S.NameCount>;
export type DateCount = Static<typeof S.DateCount>;
export type HourCount = Static<typeof S.HourCount>;
export type UtmCount = Static<typeof S.UtmCount>;
export type RecentVisit = Static<typeof S.RecentVisit>;
export type LinkStats = Static<typeof S.LinkStats>;
/** GET /api/stats */
export type StatsAnswer = Data<Static<typeof S.Stats>>;
/** POST /api/create */
export type Created = Data<Static<typeof S.Created>>;
/** A link of the management API; `daily` only in lists with include=daily. */
export type LinkJson = Static<typeof S.ListedLink>;
/** GET /api/links */
export type LinkPage = Data<Static<typeof S.LinkPage>>;
export type TransferRecord = Static<typeof S.TransferRecord>;
/** POST /api/links/import */
export type ImportOutcome = Data<Static<typeof S.ImportOutcome>>;
export type Overview = Static<typeof S.OverviewData>;
/** GET /api/session */
export type Who = Data<Static<typeof S.Session>>;
/** GET /health */
export type Health = Static<typeof S.Health>;
export type ApiErrorBody = Static<typeof S.ApiError>;
/** A webhook as /api/webhooks answers it (never its secret, but once from the create). */
export type WebhookJson = Static<typeof S.Webhook>;
export type DomainJson = Static<typeof S.Domain>;
export type DeliveryJson = Static<typeof S.Delivery>;
/** docs/statistics.md: The previous period; GET /api/stats/tag, /domain, /compare */
export type PreviousPeriod = Static<typeof S.PreviousPeriod>;
export type TagStatsAnswer = Data<Static<typeof S.TagStats>>;
export type DomainStatsAnswer = Data<Static<typeof S.DomainStats>>;
export type CompareAnswer = Data<Static<typeof S.CompareStats>>;
/** A share link as the management API lists it; as it is made, with its token and URL (docs/statistics.md: Sharing statistics). */
export type Share = Static<typeof S.Share>;
export type ShareMade = Static<typeof S.ShareMade>;
