// The messages between the click thread (delivery.ts) and the delivery thread (src/events-thread.ts).

import type { LogFormat } from "../config.ts";
import type { EventType } from "./types.ts";

export type DeliveryInit = { database: string; databasePassword: string | null; allowPrivate: boolean; logFormat: LogFormat; userAgent: string; tickMs: number };

/** `poke`: something was written to the outbox or a webhook changed: tick now rather than at the next interval. */
export type ToDelivery = { init: DeliveryInit } | { poke: true } | { close: true };
/** `wants`: the event types enabled webhooks want, whenever they change (another process may have changed them). */
export type FromDelivery = { ready: true } | { failed: string } | { wants: EventType[] } | { closed: true };
