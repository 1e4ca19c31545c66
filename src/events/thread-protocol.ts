// The messages between the click thread (delivery.ts) and the delivery thread (src/events-thread.ts).

import type { LogFormat } from "../config.ts";

export type DeliveryInit = { database: string; databasePassword: string | null; allowPrivate: boolean; logFormat: LogFormat; userAgent: string };

/** `poke`: something was written to the outbox or a webhook changed: tick now rather than at the next interval. */
export type ToDelivery = { init: DeliveryInit } | { poke: true } | { close: true };
/**
 * `webhooksChanged`: what enabled webhooks want changed (another process may have changed it), or
 * some time passed: a sign only, the click thread reads them itself (wants.ts wantsRefresher).
 */
export type FromDelivery = { ready: true } | { failed: string } | { webhooksChanged: true } | { closed: true };
