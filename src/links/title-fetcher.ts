// Titles fetched for links created without one (docs/link-titles.md: How a title is fetched): a
// bounded queue worked by a few fetches at a time, after the create has answered. A title is a
// nicety, not acknowledged data: a full queue drops the newest wish (counted), a stop drops what
// waits and ignores what is under way, and a title a person set meanwhile is never overwritten
// (LinkStore.fillTitle writes only where the title is still none).

import type { Logger } from "../log.ts";
import type { PageTitle } from "../outbound/page-title.ts";
import type { LinkStore } from "./store.ts";
import { fitTitle } from "./title.ts";

/** How each wish ended, as /metrics counts them. */
export type TitleFetchOutcome = "stored" | "kept" | "untitled" | "refused" | "failed" | "dropped";
export const TITLE_FETCH_OUTCOMES: readonly TitleFetchOutcome[] = ["stored", "kept", "untitled", "refused", "failed", "dropped"];

export type TitleFetcher = {
  /** The link `key` (alias, or alias@domain) was created without a title: fetch its page's, if there is room. Returns at once. */
  wanted(key: string, url: string): void;
  /** Wishes ended, by outcome; waiting and under way now. */
  stats(): { outcomes: Record<TitleFetchOutcome, number>; queued: number; running: number };
  /** The service stops: what waits is dropped, what runs is left to end unheard. */
  close(): void;
};

export type TitleFetcherOptions = {
  /** the page's title (src/outbound/page-title.ts), under the address policy and the bounds */
  fetchTitle: (url: string) => Promise<PageTitle>;
  store: Pick<LinkStore, "fillTitle">;
  log: Logger;
  /** fetches at a time */
  concurrency?: number;
  /** wishes waiting at most; one more is dropped */
  capacity?: number;
};

export const TITLE_QUEUE_BOUNDS = { concurrency: 2, capacity: 200 } as const;

export function createTitleFetcher(options: TitleFetcherOptions): TitleFetcher {
  const { concurrency, capacity } = { ...TITLE_QUEUE_BOUNDS, ...options };
  const outcomes = Object.fromEntries(TITLE_FETCH_OUTCOMES.map((o) => [o, 0])) as Record<TitleFetchOutcome, number>;
  let waiting: { key: string; url: string }[] = [];
  let running = 0;
  let closed = false;

  const work = async (key: string, url: string): Promise<void> => {
    const outcome = await fetchAndStore(key, url, options, () => closed);
    if (outcome !== null) outcomes[outcome]++;
  };
  const next = (): void => {
    while (!closed && running < concurrency && waiting.length > 0) {
      const { key, url } = waiting.shift()!;
      running++;
      void work(key, url).finally(() => {
        running--;
        next();
      });
    }
  };
  return {
    wanted(key, url) {
      if (closed) return;
      if (waiting.length >= capacity) {
        outcomes.dropped++;
        return;
      }
      waiting.push({ key, url });
      next();
    },
    stats: () => ({ outcomes: { ...outcomes }, queued: waiting.length, running }),
    close() {
      closed = true;
      waiting = [];
    },
  };
}

/** One wish: fetch, fit, store where still none. Null when the service stopped meanwhile (nothing is written then). */
async function fetchAndStore(key: string, url: string, o: TitleFetcherOptions, stopped: () => boolean): Promise<TitleFetchOutcome | null> {
  let page: PageTitle;
  try {
    page = await o.fetchTitle(url);
  } catch (err) {
    page = { outcome: "failed", reason: err instanceof Error ? err.message : String(err) };
  }
  if (stopped()) return null;
  if (page.outcome === "refused" || page.outcome === "failed") {
    // The host, never the path or the query: a link's URL may carry a token.
    o.log.info(`link title not fetched: ${page.reason}`, { link: key, host: URL.parse(url)?.host ?? "" });
    return page.outcome;
  }
  const title = page.outcome === "titled" ? fitTitle(page.text) : null;
  if (title === null) return "untitled";
  try {
    return (await o.store.fillTitle(key, title)) ? "stored" : "kept";
  } catch (err) {
    o.log.error("storing a fetched link title failed", { link: key, error: err instanceof Error ? err.message : String(err) });
    return "failed";
  }
}
