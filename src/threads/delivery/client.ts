// The click thread's side of webhook delivery: starts the delivery thread (entry.ts) when some
// enabled webhook wants events, pokes it when something was written to the outbox, and hears from
// it when what the enabled webhooks want may have changed (by another process too: `shortener
// webhook add`, other instances) and when it has nothing left to do, which stops it
// (docs/architecture.md: Threads). A service without webhooks runs no delivery thread.

import type { Logger } from "../../log.ts";
import { startThread, type WorkerThread } from "../start.ts";
import type { DeliveryInit, FromDelivery, ToDelivery } from "./protocol.ts";

export type DeliveryThread = {
  /** Something was written to the outbox: the running thread ticks now (none runs: nobody wants it). */
  poke(): void;
  /** Webhooks may have changed here: what they want is read again, and the thread started (not waited for) if they want anything. */
  changed(): Promise<void>;
  close(): Promise<void>;
};

export type DeliveryOptions = {
  /** Reads what enabled webhooks want again (applying it); answers whether they want anything. */
  wanted: () => Promise<boolean>;
  /** While no thread runs: moves the expiry mark without announcing (events/store.ts sweepExpired), as the thread does once a minute. */
  markExpiry: () => Promise<unknown>;
  log: Logger;
  /** How often it looks while no thread runs (DELIVERY_CHECK_MS; tests make it short). */
  checkEveryMs?: number;
};

/**
 * How long a stop waits for the delivery thread (docs/architecture.md: Threads): it lets a send
 * under way finish for 2 s (entry.ts); what is not done is sent again after the restart.
 */
export const DELIVERY_CLOSE_WITHIN_MS = 5_000;
/**
 * While no thread runs, what webhooks want is read this often (another process may add one: the
 * running thread's sign comes as often), and a start that failed is tried again.
 */
export const DELIVERY_CHECK_MS = 10_000;
/** The expiry mark moves this often while no thread runs (EXPIRY_MARK_EVERY_MS): a new link.gone webhook hears no old news. */
const MARK_EVERY_CHECKS = 6;

export function deliveryOnDemand(init: DeliveryInit, o: DeliveryOptions): DeliveryThread {
  let thread: WorkerThread<ToDelivery, true> | null = null;
  let starting: Promise<void> | null = null;
  let stopping: Promise<unknown> = Promise.resolve();
  let closed = false;
  let check: ReturnType<typeof setTimeout> | null = null;
  let checks = 0;
  const failed = (what: string) => (err: unknown) => o.log.error(`${what}; trying again`, { error: err instanceof Error ? err.message : String(err) });

  // Only while no thread runs: a slow look at the webhooks (and the expiry mark), never a busy poll.
  const watchWhileDown = (now = false) => {
    if (closed || thread !== null || starting !== null || check !== null) return;
    check = setTimeout(() => {
      check = null;
      if (thread !== null || starting !== null || closed) return;
      const mark = checks++ % MARK_EVERY_CHECKS === 0;
      void o.wanted().then((any) => (any ? start() : mark ? o.markExpiry() : undefined))
        .catch(failed("reading the webhooks failed"))
        .finally(() => watchWhileDown());
    }, now ? 0 : (o.checkEveryMs ?? DELIVERY_CHECK_MS));
  };

  // Idempotent: two changes at once start one thread; a stop under way is waited for first.
  const start = (): Promise<void> => {
    if (closed || thread !== null) return Promise.resolve();
    if (check !== null) clearTimeout(check);
    check = null;
    let started: WorkerThread<ToDelivery, true> | null = null;
    // Died once running: the outbox keeps the events; the next look starts a new thread.
    const died = () => {
      if (thread === started) thread = null;
      watchWhileDown();
    };
    starting ??= stopping
      .then(() => launch(init, o.log, (msg) => heard(started, msg), died))
      .then((t) => {
        started = t;
        starting = null;
        if (closed) return void t.close();
        thread = t;
      })
      .catch((err) => {
        starting = null;
        failed("the delivery thread could not start")(err);
        watchWhileDown();
      });
    return starting;
  };

  // The thread's sign: webhooks may have changed elsewhere; `idle`, it had nothing to do. It stops
  // only when the webhooks read here after the sign want nothing either: a webhook made meanwhile
  // keeps it, and one made after the read starts a new thread once this one has stopped.
  const heard = (from: WorkerThread<ToDelivery, true> | null, msg: FromDelivery) => {
    void o.wanted().then((any) => {
      if (!msg.idle || any || closed || from === null || thread !== from) return;
      thread = null;
      stopping = from.close();
      watchWhileDown();
    }).catch(failed("reading the webhooks failed"));
  };

  watchWhileDown(true);
  return {
    poke: () => thread?.post({ poke: true } satisfies ToDelivery),
    async changed() {
      // Not waited for: a request never waits for a thread to start (the outbox keeps what it writes meanwhile).
      if (await o.wanted()) void start();
      thread?.post({ poke: true } satisfies ToDelivery);
    },
    async close() {
      closed = true;
      if (check !== null) clearTimeout(check);
      await starting;
      const last = thread;
      thread = null;
      await Promise.all([stopping, last?.close()]);
    },
  };
}

/** The delivery thread itself, through the one way threads start (../start.ts). */
async function launch(init: DeliveryInit, log: Logger, onMessage: (msg: FromDelivery) => void, onFailed: () => void): Promise<WorkerThread<ToDelivery, true>> {
  const { thread } = await startThread<DeliveryInit, true, true, ToDelivery, FromDelivery>({
    name: "delivery",
    entry: "threads/delivery/entry.ts",
    init,
    closeWithinMs: DELIVERY_CLOSE_WITHIN_MS,
    log,
    onMessage,
    onFailed,
  });
  return thread;
}
