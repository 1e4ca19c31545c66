// The --blocklist file at run time: read at start, re-read on SIGHUP or when its modification time
// changes; each (re)load recomputes which stored links it blocks. A file that fails to parse on
// reload keeps the previous list (and says so), like --geoip-db.

import { readFileSync, statSync } from "node:fs";
import type { Database } from "bun:sqlite";
import type { Logger } from "../log.ts";
import { EMPTY_BLOCKLIST, parseBlocklist, type Blocklist } from "./blocklist.ts";
import type { LinkStore } from "./store.ts";

const MTIME_POLL_MS = 5_000;

export type BlocklistFile = {
  current(): Blocklist;
  /** Re-reads the file; keeps the previous list when the new one is unusable. */
  reload(): void;
  stop(): void;
};

/** Reads the file (throws on a bad one: a configuration error at start) and applies it to the links. */
export function openBlocklistFile(path: string | null, db: Database, links: LinkStore, log: Logger): BlocklistFile {
  let list = path === null ? EMPTY_BLOCKLIST : read(path);
  let mtime = path === null ? 0 : mtimeOf(path);
  applyToLinks(path, list, db, links, log);

  const reload = () => {
    if (path === null) return;
    try {
      list = read(path);
      mtime = mtimeOf(path);
    } catch (err) {
      log.error("blocklist reload failed; keeping the previous list", { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    applyToLinks(path, list, db, links, log);
  };
  // Polled, not watched: editors and deploy tools replace the file by rename, which breaks watches.
  const timer = path === null ? null : setInterval(() => {
    const now = mtimeOf(path);
    if (now !== 0 && now !== mtime) reload();
  }, MTIME_POLL_MS);
  timer?.unref();
  return { current: () => list, reload, stop: () => timer && clearInterval(timer) };
}

function read(path: string): Blocklist {
  return parseBlocklist(readFileSync(path, "utf8"));
}

/** Sets links.blocked to the list's verdict wherever it changed; clears the click cache. */
function applyToLinks(path: string | null, list: Blocklist, db: Database, links: LinkStore, log: Logger): void {
  const blocked: number[] = [];
  const unblocked: number[] = [];
  for (const row of db.query<{ seq: number; url: string; blocked: number }, []>("SELECT seq, url, blocked FROM links").iterate()) {
    const match = list.matches(row.url);
    if (match && row.blocked === 0) blocked.push(row.seq);
    else if (!match && row.blocked === 1) unblocked.push(row.seq);
  }
  if (blocked.length > 0 || unblocked.length > 0) links.setBlocked(blocked, unblocked);
  if (path !== null || unblocked.length > 0) {
    log.info(`blocklist ${path ?? "(none)"}: ${list.domains} domains, ${list.patterns} patterns; links newly blocked ${blocked.length}, unblocked ${unblocked.length}`);
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
