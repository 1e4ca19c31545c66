// The messages between the click thread (client.ts) and the delivery thread (entry.ts), beside the
// lifecycle's (../lifecycle.ts): init is DeliveryInit, ready and closed are `true`.

import type { LogFormat } from "../../config.ts";

/** `baseHost`: --base-url's host, what webhooks' payloads call the default domain when no domain row names it. */
export type DeliveryInit = { database: string; databasePassword: string | null; allowPrivate: boolean; logFormat: LogFormat; userAgent: string; baseHost: string | null };

/** `poke`: something was written to the outbox or a webhook changed: tick now rather than at the next interval. */
export type ToDelivery = { poke: true };
/**
 * `webhooksChanged`: what enabled webhooks want changed (another process may have changed it), or
 * some time passed: a sign only, the click thread reads them itself (src/events/wants.ts wantsRefresher).
 * `idle`: no enabled webhook wants anything and no send is under way: the click thread may stop the thread.
 */
export type FromDelivery = { webhooksChanged: true; idle: boolean };
