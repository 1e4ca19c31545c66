// The country of a click's address: a GeoIP lookup behind a small cache, swappable at run time so
// that a new --geoip-db file is picked up on SIGHUP or when the file changes, without a restart.

import { statSync } from "node:fs";
import { Lru } from "../util/lru.ts";
import { openCountryLookup, type CountryLookup } from "./geo.ts";
import type { Logger } from "../log.ts";

// Clicks from one address come in bursts (a retry, a page of links): remember its country briefly.
const CACHE_ENTRIES = 10_000;
const MTIME_POLL_MS = 30_000;

export type CountryResolver = {
  country(address: string): string | null;
  /** Re-reads the --geoip-db file; keeps the old data if the new file is unusable. */
  reload(): Promise<void>;
  current(): CountryLookup;
  stop(): void;
};

export function createCountryResolver(path: string | null, initial: CountryLookup, log: Logger): CountryResolver {
  let lookup = initial;
  let cache = new Lru<string, string | null>(CACHE_ENTRIES);
  let mtime = path ? mtimeOf(path) : 0;

  const reload = async () => {
    if (path === null) return;
    try {
      const next = await openCountryLookup(path);
      lookup = next;
      cache = new Lru(CACHE_ENTRIES);
      log.info(`geoip reloaded ${next.source}, built ${next.buildDate}`);
    } catch (err) {
      log.error("geoip reload failed; keeping the previous database", { error: err instanceof Error ? err.message : String(err) });
    }
  };

  // A polled mtime rather than fs.watch: replacing the file by rename (how updaters write) breaks
  // inotify watches on the old inode, and one stat every 30 s costs nothing.
  const timer = path
    ? setInterval(() => {
        const now = mtimeOf(path);
        if (now !== 0 && now !== mtime) {
          mtime = now;
          void reload();
        }
      }, MTIME_POLL_MS)
    : null;
  timer?.unref();

  return {
    country(address) {
      const hit = cache.get(address);
      if (hit !== undefined) return hit;
      const found = lookup.country(address);
      cache.set(address, found);
      return found;
    },
    reload,
    current: () => lookup,
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
