// Which event types some enabled webhook wants: an event nobody wants is not written at all, so
// that a service without webhooks pays nothing for them (and a click batch writes no outbox rows).
// Read again after this process's webhook changes, and when the delivery thread's poll signs that
// another process's changed them (`shortener webhook add`, other instances), or, while no delivery
// thread runs, every 10 s (src/threads/delivery/client.ts).

import type { EventType } from "./types.ts";
import type { MaybePromise } from "../util/maybe.ts";

export type EventWants = {
  has(type: EventType): boolean;
  /** Any of link.clicks, link.milestone, link.gone: what a recorded batch may have to write. */
  anyOfClicks(): boolean;
  set(types: readonly EventType[]): void;
};

export function createEventWants(initial: readonly EventType[] = []): EventWants {
  let wanted = new Set<EventType>(initial);
  let clicks = false;
  const set = (types: readonly EventType[]) => {
    wanted = new Set(types);
    clicks = wanted.has("link.clicks") || wanted.has("link.milestone") || wanted.has("link.gone");
  };
  set(initial);
  return { has: (type) => wanted.has(type), anyOfClicks: () => clicks, set };
}

/**
 * Reads the wanted types again and applies them, whoever asks (a change made here, the delivery
 * thread seeing another process's): the answer of the newest read wins, so that a read started
 * before a change can never undo what a read after it found (a report of the types themselves,
 * sent before the change and received after it, did: a link's edit then wrote no event).
 */
export function wantsRefresher(read: () => MaybePromise<EventType[]>, apply: (types: EventType[]) => void): () => Promise<EventType[]> {
  let asked = 0;
  let applied = 0;
  // Answers what this read found (applied or not): whether webhooks want anything starts the delivery thread.
  return async () => {
    const mine = ++asked;
    const types = await read();
    if (mine < applied) return types;
    applied = mine;
    apply(types);
    return types;
  };
}
