// The live view's streams (docs/webhooks.md: Live view): Server-Sent Events to the stats page (one link's
// visits) and to the dashboard (clicks of every link its viewer may see, once a second). Bounded:
// MAX_STREAMS_PER_ADDRESS and MAX_STREAMS in all; a reader that falls MAX_BUFFERED_BYTES behind is
// dropped, never buffered without end. The recorder is told which links are watched, so that a
// batch nobody watches costs it one size check.

import type { LiveBatch, LiveVisit } from "./live.ts";
import { isoTime } from "../util/day.ts";
import type { MaybePromise } from "../util/maybe.ts";

export const MAX_STREAMS_PER_ADDRESS = 10;
export const MAX_STREAMS = 500;
export const HEARTBEAT_MS = 5_000;
/** What a stream may hold unread before it is dropped (about 1,000 visits). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
const COUNTS_EVERY_MS = 1_000;

export type LiveStreamRequest = {
  address: string;
  /** a link's key (src/domains/link-key.ts), or null for the clicks of every link `mayCount` allows */
  linkId: string | null;
  /** how a link's stream names it in its events: its alias and its domain's name (not its key) */
  shownAs?: ShownLink;
  mayCount?: (linkId: string) => MaybePromise<boolean>;
  /** the first event's data */
  ready: unknown;
  /**
   * A link's stream for a viewer who does not manage it: ended when the link changes (changed()),
   * so that what they may see is decided again; `shown`: what they see of a visit (null: all of it).
   */
  guarded?: Guarded;
};

/** A link as its stream's events name it (docs/webhooks.md: Live view). */
export type ShownLink = { id: string; domain?: string | null };

/**
 * `decidedAt`: the hub's version() read before the link was, so that a change landing between that
 * read and open() (while the asker was authenticated) ends the stream at once, as any later one would.
 */
export type Guarded = { shown: ((visit: LiveVisit) => LiveVisit) | null; decidedAt: number };

export type LiveHub = {
  /** A stream's response, or why not: over a bound, or the service is stopping (closeAll). */
  open(request: LiveStreamRequest): Response | "too_many" | "closed";
  /** Visits written (by this instance's recorder, or announced by another instance). */
  publish(batch: LiveBatch): void;
  /** Links watched here now, and whether some stream watches every link. */
  watched(): { ids: string[]; all: boolean };
  streams(): number;
  /** A link changed (null: every link): its guarded streams end; their pages open them again. */
  changed(linkId: string | null): void;
  /** Links changed domain (a rename, a move, a new default): every link's stream ends, a key may now name another link. */
  linksMoved(): void;
  /** How many changes the hub has been told of (Guarded.decidedAt). */
  version(): number;
  closeAll(): void;
};

type Stream = {
  address: string;
  linkId: string | null;
  shownAs?: ShownLink;
  mayCount?: (linkId: string) => MaybePromise<boolean>;
  guarded?: Guarded;
  controller: ReadableStreamDefaultController<Uint8Array>;
  clicks: number;
  humans: number;
};

const encoder = new TextEncoder();
/** One Server-Sent Event. */
const frameText = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const frame = (event: string, data: unknown) => encoder.encode(frameText(event, data));

/**
 * The events of a batch for each watched link, as bytes per view of its visits (made once per view
 * and batch): the visits, then what was only counted (`more`).
 */
function linkChunks(batch: LiveBatch, watched: (linkId: string) => ShownLink | null): Map<string, (shown: Guarded["shown"]) => Uint8Array> {
  const parts = new Map<string, { link: ShownLink; visits: LiveVisit[]; more: string }>();
  const of = (linkId: string, link: ShownLink) => parts.get(linkId) ?? parts.set(linkId, { link, visits: [], more: "" }).get(linkId)!;
  for (const [linkId, visit] of batch.visits) {
    const link = watched(linkId);
    if (link !== null) of(linkId, link).visits.push(visit);
  }
  for (const [linkId, clicks, humans] of batch.more) {
    const link = watched(linkId);
    if (link !== null) of(linkId, link).more += frameText("more", { ...link, clicks, humans });
  }
  const out = new Map<string, (shown: Guarded["shown"]) => Uint8Array>();
  for (const [linkId, { link, visits, more }] of parts) {
    const made = new Map<Guarded["shown"], Uint8Array>();
    out.set(linkId, (shown) => {
      let bytes = made.get(shown);
      if (bytes === undefined) {
        const text = visits.map((v) => frameText("visit", { ...link, visit: shown === null ? v : shown(v) } satisfies ShownLink & { visit: LiveVisit })).join("");
        made.set(shown, (bytes = encoder.encode(text + more)));
      }
      return bytes;
    });
  }
  return out;
}

/** The hub's state, shared by the functions below. */
type HubState = {
  onWatchChange: (watch: { ids: string[]; all: boolean }) => void;
  now: () => number;
  streams: Set<Stream>;
  byLink: Map<string, Set<Stream>>;
  perAddress: Map<string, number>;
  allStreams: number;
  heartbeat: ReturnType<typeof setInterval> | null;
  counts: ReturnType<typeof setInterval> | null;
  // Set by closeAll: a stream opened after it would hold the server's stop for good.
  closed: boolean;
  changes: number;
};

/** `onWatchChange`: the watched set changed (told to the recorder, and to other instances). */
export function createLiveHub(onWatchChange: (watch: { ids: string[]; all: boolean }) => void, now: () => number = Date.now): LiveHub {
  const hub: HubState = { onWatchChange, now, streams: new Set(), byLink: new Map(), perAddress: new Map(), allStreams: 0, heartbeat: null, counts: null, closed: false, changes: 0 };
  return {
    open: (request) => open(hub, request),
    publish: (batch) => publish(hub, batch),
    watched: () => watched(hub),
    streams: () => hub.streams.size,
    version: () => hub.changes,
    changed(linkId) {
      hub.changes++;
      const of = linkId === null ? [...hub.byLink.values()].flatMap((set) => [...set]) : [...(hub.byLink.get(linkId) ?? [])];
      for (const s of of) if (s.guarded !== undefined) end(hub, s);
    },
    linksMoved() {
      hub.changes++;
      for (const s of [...hub.byLink.values()].flatMap((set) => [...set])) end(hub, s);
    },
    closeAll() {
      hub.closed = true;
      for (const s of [...hub.streams]) end(hub, s);
    },
  };
}

const watched = (hub: HubState) => ({ ids: [...hub.byLink.keys()], all: hub.allStreams > 0 });

function write(hub: HubState, s: Stream, chunk: Uint8Array): void {
  // desiredSize goes below zero by what the reader has not taken: past the bound it is dropped.
  if ((s.controller.desiredSize ?? 0) < -MAX_BUFFERED_BYTES) {
    remove(hub, s);
    try {
      s.controller.error(new Error("the reader fell too far behind"));
    } catch {}
    return;
  }
  try {
    s.controller.enqueue(chunk);
  } catch {
    remove(hub, s); // closed by the client meanwhile
  }
}

function remove(hub: HubState, s: Stream): void {
  if (!hub.streams.delete(s)) return;
  const left = (hub.perAddress.get(s.address) ?? 1) - 1;
  if (left === 0) hub.perAddress.delete(s.address);
  else hub.perAddress.set(s.address, left);
  if (s.linkId === null) hub.allStreams--;
  else {
    const set = hub.byLink.get(s.linkId)!;
    set.delete(s);
    if (set.size === 0) hub.byLink.delete(s.linkId);
  }
  if (hub.streams.size === 0 && hub.heartbeat !== null) {
    clearInterval(hub.heartbeat);
    hub.heartbeat = null;
  }
  if (hub.allStreams === 0 && hub.counts !== null) {
    clearInterval(hub.counts);
    hub.counts = null;
  }
  hub.onWatchChange(watched(hub));
}

/** Ends a stream: the reader gets what was queued, then the end. */
function end(hub: HubState, s: Stream): void {
  remove(hub, s);
  try {
    s.controller.close();
  } catch {}
}

function sendCounts(hub: HubState): void {
  for (const s of hub.streams) {
    if (s.linkId !== null || s.clicks === 0) continue;
    write(hub, s, frame("clicks", { clicks: s.clicks, humans: s.humans }));
    s.clicks = 0;
    s.humans = 0;
  }
}

function open(hub: HubState, request: LiveStreamRequest): Response | "too_many" | "closed" {
  if (hub.closed) return "closed";
  if (hub.streams.size >= MAX_STREAMS || (hub.perAddress.get(request.address) ?? 0) >= MAX_STREAMS_PER_ADDRESS) return "too_many";
  let stream!: Stream;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stream = { address: request.address, linkId: request.linkId, shownAs: request.shownAs, mayCount: request.mayCount, guarded: request.guarded, controller, clicks: 0, humans: 0 };
        controller.enqueue(frame("ready", request.ready));
      },
      cancel: () => remove(hub, stream),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }),
  );
  hub.streams.add(stream);
  hub.perAddress.set(request.address, (hub.perAddress.get(request.address) ?? 0) + 1);
  if (request.linkId === null) hub.allStreams++;
  else (hub.byLink.get(request.linkId) ?? hub.byLink.set(request.linkId, new Set()).get(request.linkId)!).add(stream);
  hub.heartbeat ??= setInterval(() => {
    const beat = frame("heartbeat", { at: isoTime(hub.now()) });
    for (const s of hub.streams) write(hub, s, beat);
  }, HEARTBEAT_MS);
  if (hub.allStreams > 0) hub.counts ??= setInterval(() => sendCounts(hub), COUNTS_EVERY_MS);
  hub.onWatchChange(watched(hub));
  // Decided on a link that has changed since: the reader gets "ready" and the end, and asks again.
  if (request.guarded !== undefined && request.guarded.decidedAt !== hub.changes) end(hub, stream);
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff" },
  });
}

function publish(hub: HubState, batch: LiveBatch): void {
  // One chunk per link and batch (and per view of it), written once to each of its streams.
  // A link's events name it by alias and domain, as its streams were opened with (its key otherwise).
  const watchedAs = (id: string): ShownLink | null => {
    const streams = hub.byLink.get(id);
    if (streams === undefined) return null;
    for (const s of streams) if (s.shownAs !== undefined) return s.shownAs;
    return { id };
  };
  for (const [linkId, chunk] of linkChunks(batch, watchedAs)) {
    for (const s of [...hub.byLink.get(linkId)!]) write(hub, s, chunk(s.guarded?.shown ?? null));
  }
  if (hub.allStreams === 0) return;
  for (const [linkId, clicks, humans] of batch.counts) {
    for (const s of hub.streams) {
      if (s.linkId !== null) continue;
      const add = () => {
        s.clicks += clicks;
        s.humans += humans;
      };
      const may = s.mayCount?.(linkId) ?? true;
      if (may instanceof Promise) void may.then((ok) => ok && add(), () => {});
      else if (may) add();
    }
  }
}
