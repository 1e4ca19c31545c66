// The --blocklist file at run time: read at start, re-read on SIGHUP or when its modification time
// changes; each (re)load recomputes which stored links it blocks. A file that fails to parse on
// reload keeps the previous list (and says so), like --geoip-db.

import { readFileSync, statSync } from "node:fs";
import type { Logger } from "../log.ts";
import { EMPTY_BLOCKLIST, parseBlocklist, type Blocklist } from "./blocklist.ts";
import type { LinkStore } from "./store.ts";

const MTIME_POLL_MS = 5_000;

export type BlocklistFile = {
  current(): Blocklist;
  /** Re-reads the file; keeps the previous list when the new one is unusable. */
  reload(): Promise<void>;
  stop(): void;
};

/** Reads the file (throws on a bad one: a configuration error at start) and applies it to the links. */
export async function openBlocklistFile(path: string | null, links: LinkStore, log: Logger): Promise<BlocklistFile> {
  let list = readBlocklist(path);
  let mtime = path === null ? 0 : mtimeOf(path);
  await applyToLinks(path, list, links, log);

  // One application at a time: a SIGHUP during a walk over many links waits for it to finish.
  let applying: Promise<void> = Promise.resolve();
  const reload = () => {
    if (path === null) return applying;
    try {
      list = read(path);
      mtime = mtimeOf(path);
    } catch (err) {
      log.error("blocklist reload failed; keeping the previous list", { error: err instanceof Error ? err.message : String(err) });
      return applying;
    }
    const next = list;
    applying = applying.then(() => applyToLinks(path, next, links, log)).catch((err: unknown) => {
      log.error("applying the blocklist to stored links failed; the next reload tries again", { error: err instanceof Error ? err.message : String(err) });
    });
    return applying;
  };
  // Polled, not watched: editors and deploy tools replace the file by rename, which breaks watches.
  const timer = path === null ? null : setInterval(() => {
    const now = mtimeOf(path);
    if (now !== 0 && now !== mtime) void reload();
  }, MTIME_POLL_MS);
  timer?.unref();
  return { current: () => list, reload, stop: () => timer && clearInterval(timer) };
}

function read(path: string): Blocklist {
  return parseBlocklist(readFileSync(path, "utf8"));
}

/** The list as the file says now, once (a command's: an import, `shortener webhook add`); none without a file. */
export function readBlocklist(path: string | null): Blocklist {
  return path === null ? EMPTY_BLOCKLIST : read(path);
}

/** Sets links.blocked to the list's verdict wherever it changed; clears the click cache. */
async function applyToLinks(path: string | null, list: Blocklist, links: LinkStore, log: Logger): Promise<void> {
  const blocked: number[] = [];
  const unblocked: number[] = [];
  for await (const link of links.destinations()) {
    // A link is blocked when any place it can send a visitor to or show is: its URL, a rule's, a
    // variant's, its fallback, its card's image, an intent's web pages (docs/redirect-rules.md: Blocklist).
    const match = list.matches(link.url) || link.also.some((url) => list.matches(url));
    if (match && !link.blocked) blocked.push(link.seq);
    else if (!match && link.blocked) unblocked.push(link.seq);
  }
  if (blocked.length > 0 || unblocked.length > 0) await links.setBlocked(blocked, unblocked);
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
