// The shapes of every request and response of the API, once, as Elysia's `t` (TypeBox) models.
// The OpenAPI document is built from them (src/http/openapi/document.ts), the test suites check
// every API response they receive against them (test/support/contract.ts), and the TypeScript
// types of what the service answers are derived from them (Static<>, in the domain files that
// build those answers), so neither the document nor the code can drift from what is answered.
// Responses are closed (no undocumented field passes).
// The shapes live by area in schemas/; this file names every one the rest of the code uses.

export { ApiError, FieldProblem, Health, ISO_TIME } from "./schemas/common.ts";
export { Condition, CreateForm, CreateJson, Created, Deleted, Link, LinkChanges, LinkPage, LinkResponse, ListedLink, Rule, Variant } from "./schemas/links.ts";
export { DateCount, HourCount, LinkStats, NameCount, Overview, OverviewData, RecentVisit, Stats, UtmCount } from "./schemas/stats.ts";
export { ExportJson, ImportJob, ImportOutcome, ImportRequest, ImportRows, ImportStopped, TransferRecord } from "./schemas/imports.ts";
export { Delivery, DeliveryPage, DeliveryResponse, Webhook, WebhookChanges, WebhookCreated, WebhookDeleted, WebhookFields, WebhookList, WebhookResponse } from "./schemas/webhooks.ts";
export { CertificateAnswer, Domain, DomainChanges, DomainFields, DomainList, DomainRemoved, DomainResponse, DomainsForCreate } from "./schemas/domains.ts";
export { Session, SignIn, SignedIn, SignedOut, User } from "./schemas/auth.ts";
export { OrphanSummary, OrphanSummaryData } from "./schemas/orphans.ts";
export { PreviousPeriod } from "./schemas/stats.ts";
export { CompareSeries, CompareStats, DomainStats, TagStats } from "./schemas/aggregate.ts";
export { Share, ShareCreated, ShareList, ShareMade, ShareRequest, ShareRevoked } from "./schemas/shares.ts";
