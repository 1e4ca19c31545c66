// The click thread's side of webhook delivery: starts the delivery thread (src/events-thread.ts),
// pokes it when something was written to the outbox, and hears from it when what the enabled
// webhooks want may have changed (by another process too: `shortener webhook add`, other instances).

import { threadEntry } from "../util/thread-entry.ts";
import type { DeliveryInit, FromDelivery, ToDelivery } from "./thread-protocol.ts";

export type DeliveryThread = {
  poke(): void;
  close(): Promise<void>;
};

export function startDelivery(init: DeliveryInit, onWebhooksChanged: () => void): Promise<DeliveryThread> {
  const worker = new Worker(threadEntry("events-thread.ts"));
  let onClosed: (() => void) | null = null;
  return new Promise((resolve, reject) => {
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`the delivery thread failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<FromDelivery>) => {
      const msg = event.data;
      if ("failed" in msg) {
        worker.terminate();
        reject(new Error(msg.failed));
      } else if ("webhooksChanged" in msg) onWebhooksChanged();
      else if ("closed" in msg) onClosed?.();
      else
        resolve({
          poke: () => worker.postMessage({ poke: true } satisfies ToDelivery),
          close: () =>
            new Promise<void>((done) => {
              const timeout = setTimeout(finish, 5_000);
              function finish() {
                clearTimeout(timeout);
                worker.terminate();
                done();
              }
              onClosed = finish;
              worker.postMessage({ close: true } satisfies ToDelivery);
            }),
        });
    };
    worker.postMessage({ init } satisfies ToDelivery);
  });
}
