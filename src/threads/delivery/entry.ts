// The delivery thread's entry point (started by client.ts through ../start.ts while some webhook
// wants events): its own connection to the database, and the dispatcher ticking on it
// (src/events/dispatcher.ts), so that neither fanning out nor signing and sending ever runs on the
// thread that answers clicks. It says when it has nothing left to do; the click thread stops it then.

import { createLogger } from "../../log.ts";
import { openEvents } from "../../db/open-storage.ts";
import { createDispatcher, type Dispatcher } from "../../events/dispatcher.ts";
import { httpSender } from "../../events/sender.ts";
import type { DeliveryInit, FromDelivery, ToDelivery } from "./protocol.ts";
import { nameThisThread } from "../policy.ts";
import { serveThread } from "../serve.ts";

let dispatcher: Dispatcher | null = null;
let close: (() => Promise<void>) | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let running: Promise<void> | null = null;
let again = false;
let stopped = false;
let wanted = "";
let saidIdle = false;
let saidAt = 0;
/** How often the thread looks at the outbox and the queues without being poked (another instance's events, retries due). */
const TICK_MS = 500;
/** The sign that webhooks changed is given again this often: a read of the click thread that failed must not leave it behind for good. */
const SAY_AGAIN_MS = 10_000;

async function start(o: DeliveryInit): Promise<true> {
  nameThisThread("delivery");
  const log = createLogger(o.logFormat);
  let opened;
  try {
    opened = await openEvents(o.database, o.databasePassword, true);
  } catch (err) {
    throw new Error(`the delivery thread cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
  }
  close = opened.close;
  const store = opened.events;
  dispatcher = createDispatcher({ store, send: httpSender({ allowPrivate: o.allowPrivate, userAgent: o.userAgent }), now: Date.now, random: Math.random, log, onSent: () => pokeNow(), baseHost: o.baseHost });
  let lastError = "";
  const round = async () => {
    try {
      const types = (await dispatcher!.tick()).sort().join(" ");
      // Idle: nothing wanted, nothing being sent (the tick fanned the outbox out): the click thread stops this thread.
      const idle = types === "" && !dispatcher!.sending();
      if (types !== wanted || idle !== saidIdle || Date.now() - saidAt >= SAY_AGAIN_MS) {
        wanted = types;
        saidIdle = idle;
        saidAt = Date.now();
        post({ webhooksChanged: true, idle });
      }
      lastError = "";
    } catch (err) {
      // The database busy or away: said once, tried again next tick.
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) log.error("delivering webhooks failed; trying again", { error: message });
      lastError = message;
    }
  };
  // One round at a time; a poke during a round runs one more right after it.
  const run = () => {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = round().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      } else if (!stopped) timer = setTimeout(run, TICK_MS);
    });
  };
  pokeNow = run;
  // Once ready is posted (serve.ts posts it when this returns): the first round's sign follows it.
  timer = setTimeout(run, 0);
  return true;
}

let pokeNow = () => {};

async function stop(): Promise<true> {
  stopped = true;
  clearTimeout(timer);
  await running;
  // A send under way may finish (its result is kept); one that does not within 2 s is sent again
  // after the restart (at least once: its receiver de-duplicates by webhook-id).
  if (dispatcher !== null) await Promise.race([dispatcher.idle(), Bun.sleep(2_000)]);
  await close?.();
  return true;
}

const post = serveThread<DeliveryInit, true, true, ToDelivery, FromDelivery>({ start, message: () => pokeNow(), close: stop });
