// The country of a click's address: a GeoIP lookup, swappable at run time so that a new
// --geoip-db file is picked up on SIGHUP or when the file changes, without a restart. No cache
// per address: the lookup is a range table (country-table.ts) that answers faster than a cache
// hit, and a cache keyed by address only grows and misses when every visitor is new.

import { statSync } from "node:fs";
import { openCountryLookup, type CountryLookup } from "./geo.ts";
import type { Logger } from "../log.ts";

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
  let mtime = path ? mtimeOf(path) : 0;

  const reload = async () => {
    if (path === null) return;
    try {
      const next = await openCountryLookup(path);
      lookup = next;
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
    country: (address) => lookup.country(address),
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
