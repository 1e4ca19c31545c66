// What the click path records a click into: the recorder, whose thread (src/threads/recorder/)
// works out and writes the visits. Bounded, with counted drops; close() hands over and writes
// everything before it resolves.

import type { Click } from "./click.ts";
import type { WriterStats } from "./visit-queue.ts";
import type { EventType } from "../events/types.ts";

/**
 * The writer's figures, how many clicks waited for it to catch up (catch-up.ts), and how many it
 * took but did not record because they came from --no-count-from addresses (opt-outs.ts);
 * `orphansDropped`: visits to no link dropped at their own bound (catch-up.ts orphanBound), never
 * in `dropped` (which says that the database refused writes).
 */
export type RecorderStats = WriterStats & { delayed: number; notCounted: number; orphansDropped: number };

export type ClickRecorder = {
  /** Queues the click; a promise when its answer should wait for the writer to catch up. */
  record(click: Click): Promise<void> | undefined;
  /**
   * Queues a visit to no link (orphans.ts): never waits, and is dropped once the backlog is half of
   * where clicks start to wait (catch-up.ts orphanBound), so that a flood of not-found requests
   * never delays a click.
   */
  recordOrphan(click: Click): void;
  stats(): RecorderStats;
  /** SIGHUP: re-read the --geoip-db file. */
  reloadGeo(): void;
  /** The click thread waits for SQLite's write lock, which the recorder may hold: normal priority now. */
  hurry(): void;
  /** Hands over what is left and resolves once the recorder thread has written it and closed. */
  close(): Promise<RecorderStats>;
  geoSource: string;
  geoBuildDate: string;
  /** "low" while the recorder thread yields the CPU to the click thread (src/threads/recorder/priority.ts) */
  priority(): "low" | "normal";
  /** The event types webhooks want: a batch writes those with its visits. */
  setWants(types: EventType[]): void;
  /** The links live views watch (`all`: every link): their visits come back through onLive once written. */
  watch(ids: string[], all: boolean): void;
};
