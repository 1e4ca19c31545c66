// The click thread's side of webhook delivery: starts the delivery thread (entry.ts), pokes it when
// something was written to the outbox, and hears from it when what the enabled webhooks want may
// have changed (by another process too: `shortener webhook add`, other instances).

import { createLogger } from "../../log.ts";
import { startThread } from "../start.ts";
import type { DeliveryInit, FromDelivery, ToDelivery } from "./protocol.ts";

export type DeliveryThread = {
  poke(): void;
  close(): Promise<void>;
};

/**
 * How long a stop waits for the delivery thread (docs/architecture.md: Threads): it lets a send
 * under way finish for 2 s (entry.ts); what is not done is sent again after the restart.
 */
export const DELIVERY_CLOSE_WITHIN_MS = 5_000;

export async function startDelivery(init: DeliveryInit, onWebhooksChanged: () => void): Promise<DeliveryThread> {
  const { thread } = await startThread<DeliveryInit, true, true, ToDelivery, FromDelivery>({
    name: "delivery",
    entry: "threads/delivery/entry.ts",
    init,
    closeWithinMs: DELIVERY_CLOSE_WITHIN_MS,
    log: createLogger(init.logFormat),
    onMessage: () => onWebhooksChanged(),
  });
  return {
    // A dead thread delivers nothing until the restart; the outbox keeps the events until then.
    poke: () => thread.post({ poke: true } satisfies ToDelivery),
    close: async () => {
      await thread.close();
    },
  };
}
