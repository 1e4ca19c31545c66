// Log lines a client can cause at will (failed key attempts past the limit, failed sign-ins): at
// most one a minute per client address, so that a flood of requests cannot flood the log too.

import { Lru } from "../util/lru.ts";

const INTERVAL_MS = 60_000;

/** A gate: true when this address may have a line now (and then not again for a minute). Memory only, bounded. */
export function oncePerMinute(addresses = 10_000): (client: string, now: number) => boolean {
  const logged = new Lru<string, number>(addresses);
  return (client, now) => {
    if (now - (logged.get(client) ?? -Infinity) < INTERVAL_MS) return false;
    logged.set(client, now);
    return true;
  };
}
