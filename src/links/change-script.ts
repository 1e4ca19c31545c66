// The link change script, written once for both engines: in what order a link's insert, edit,
// delete and the blocklist's marks read the link before, change it, read it after, write their
// events (src/events/link-events.ts), clear its data tables and retire its id. Each engine gives
// only its primitive statements (LinkStatements) and the one transaction they run in
// (src/db/<engine>/links.ts), so the two cannot drift apart again: they did, when each wrote the
// script itself (PostgreSQL's delete read the link before locking it, so a link.deleted event
// could carry values an edit committed meanwhile had replaced: docs/webhooks.md, "as it was").

import type { Link } from "./link.ts";
import type { LinkChanges, NewLink } from "./store.ts";
import type { OutboxEvent } from "../events/types.ts";
import type { RetagOutcome } from "./tags.ts";
import type { MaybePromise } from "../util/maybe.ts";
import { runSteps, step, type Steps } from "../util/steps.ts";

/** The id that means "every link" in a change heard of (no link id can be "*": alias.ts). */
export const EVERY_LINK = "*";

/** What an insert's transaction writes to the outbox, once the link has its seq (the events are keyed by it). */
export type InsertEvents = (seq: number) => OutboxEvent[];
/** What an edit's transaction writes to the outbox, from the link before and after it. */
export type UpdateEvents = (after: Link, before: Link, changed: readonly string[]) => OutboxEvent[];
/** What a delete's transaction writes to the outbox, from the link it deletes. */
export type DeleteEvents = (before: Link) => OutboxEvent[];

/** The statements of a link's writes, each run inside the transaction the engine opened for the script. */
export type LinkStatements = {
  /** Inserts the row and its tags under id: its seq, or "taken" or "retired" (a deleted link's id), inserting nothing. */
  insertRow(id: string, link: NewLink, now: number): MaybePromise<number | "taken" | "retired">;
  /** The link's seq, its row held until the transaction ends (no other write changes it meanwhile); null for no such link. */
  lock(id: string): MaybePromise<number | null>;
  read(id: string): MaybePromise<Link | null>;
  /** Sets the columns the changes name (tags are not a column). */
  setColumns(seq: number, changes: LinkChanges): MaybePromise<void>;
  replaceTags(seq: number, tags: readonly string[]): MaybePromise<void>;
  /** Deletes the row (its tags go with it). */
  deleteRow(seq: number): MaybePromise<void>;
  /** Deletes the link's rows in every table of src/db/shared/tables.ts LINK_DATA_TABLES (keyed by its seq). */
  deleteData(seq: number): MaybePromise<void>;
  /** Keeps the id (in the default domain) and the seq it had: never given again, still named by the link's events and webhooks. */
  retire(id: string, seq: number, now: number): MaybePromise<void>;
  markBlocked(seqs: readonly number[], blocked: boolean): MaybePromise<void>;
  writeEvents(events: readonly OutboxEvent[]): MaybePromise<void>;
  /** The links carrying any of the tags (key and seq, in seq order), their rows held until the transaction ends (each held as lock holds one). */
  lockTagged(tags: readonly string[]): MaybePromise<{ key: string; seq: number }[]>;
  /** The links of these seqs, in seq order: one read for many (a tag's rename may change thousands). */
  readSeqs(seqs: readonly number[]): MaybePromise<Link[]>;
  /** Whether some link carries the tag. */
  tagUsed(tag: string): MaybePromise<boolean>;
  /** Renames the tag on every link (to: null takes it off them); a link that had both names keeps one. */
  retagRows(from: string, to: string | null): MaybePromise<void>;
  /** Tells the other instances sharing the database that the link (or EVERY_LINK) changed; nothing where one process owns it. */
  announce(id: string): MaybePromise<void>;
};

/** Runs work in one transaction of the engine, committed when work's result is (rolled back when it throws). */
export type LinkTransaction = <T>(work: (statements: LinkStatements) => MaybePromise<T>) => MaybePromise<T>;

/** One link of insertAll: inserted under id, with its events. */
export type LinkInsert = { id: string; link: NewLink; now: number; events: InsertEvents | null };

/** The writes of the links port (LinkRepository in store.ts): each one transaction. */
export type LinkWrites = {
  /** Inserts under id, with its tags and its events; "taken" or "retired" when it may not. */
  insert(id: string, link: NewLink, now: number, events?: InsertEvents | null): MaybePromise<number | "taken" | "retired">;
  /**
   * Inserts each link as insert does, all in one transaction (an import's slice: one commit, not one
   * a link); each one's seq, or "taken" or "retired" for those not inserted (the others still are).
   */
  insertAll(links: readonly LinkInsert[]): MaybePromise<(number | "taken" | "retired")[]>;
  /** Applies the changes (and writes `events` of the link before and after); false when there is no such link. */
  update(id: string, changes: LinkChanges, events?: UpdateEvents | null): MaybePromise<boolean>;
  /** Deletes the link, its tags and its rows in every link data table, and retires the id (writing `events` of the link as it was). */
  remove(id: string, now: number, events?: DeleteEvents | null): MaybePromise<boolean>;
  /** Sets the blocked flag of links by seq (the blocklist's verdict). */
  setBlocked(blocked: readonly number[], unblocked: readonly number[]): MaybePromise<void>;
  /**
   * Renames the tags `from` (one) to `to` on every link, or takes the tags `from` off every link
   * (to: null), writing each changed link's `events` as an edit of its tags does.
   */
  retag(from: readonly string[], to: string | null, events?: UpdateEvents | null): MaybePromise<RetagOutcome>;
};

/** The writes, each the script below run in one transaction of the engine's. */
export function linkWrites(transaction: LinkTransaction): LinkWrites {
  return {
    insert: (id, link, now, events = null) => transaction((s) => runSteps(insertScript(s, id, link, now, events))),
    insertAll: (links) => transaction((s) => runSteps(insertAllScript(s, links))),
    update: (id, changes, events = null) => transaction((s) => runSteps(updateScript(s, id, changes, events))),
    remove: (id, now, events = null) => transaction((s) => runSteps(removeScript(s, id, now, events))),
    setBlocked: (blocked, unblocked) => transaction((s) => runSteps(blockScript(s, blocked, unblocked))),
    retag: (from, to, events = null) => transaction((s) => runSteps(retagScript(s, from, to, events))),
  };
}

/** A new link: nothing else changed, so nobody is told (no instance caches an id that did not exist). */
function* insertScript(s: LinkStatements, id: string, link: NewLink, now: number, events: InsertEvents | null): Steps<number | "taken" | "retired"> {
  const outcome = yield* step(s.insertRow(id, link, now));
  if (typeof outcome !== "number") return outcome;
  if (events !== null) yield* step(s.writeEvents(events(outcome)));
  return outcome;
}

function* insertAllScript(s: LinkStatements, links: readonly LinkInsert[]): Steps<(number | "taken" | "retired")[]> {
  const outcomes: (number | "taken" | "retired")[] = [];
  for (const l of links) outcomes.push(yield* insertScript(s, l.id, l.link, l.now, l.events));
  return outcomes;
}

/** The link is read before and after only when some webhook wants the events (events not null). */
function* updateScript(s: LinkStatements, id: string, changes: LinkChanges, events: UpdateEvents | null): Steps<boolean> {
  const seq = yield* step(s.lock(id));
  if (seq === null) return false;
  const before = events === null ? null : yield* step(s.read(id));
  yield* step(s.setColumns(seq, changes));
  if (changes.tags !== undefined) yield* step(s.replaceTags(seq, changes.tags));
  if (events !== null) {
    const after = yield* step(s.read(id));
    yield* step(s.writeEvents(events(after!, before!, Object.keys(changes))));
  }
  yield* step(s.announce(id));
  return true;
}

/** Locked before it is read: the delete's event is the link exactly as it was deleted. */
function* removeScript(s: LinkStatements, id: string, now: number, events: DeleteEvents | null): Steps<boolean> {
  const seq = yield* step(s.lock(id));
  if (seq === null) return false;
  const before = events === null ? null : yield* step(s.read(id));
  yield* step(s.deleteRow(seq));
  if (events !== null) yield* step(s.writeEvents(events(before!)));
  yield* step(s.deleteData(seq));
  yield* step(s.retire(id, seq, now));
  yield* step(s.announce(id));
  return true;
}

function* blockScript(s: LinkStatements, blocked: readonly number[], unblocked: readonly number[]): Steps<void> {
  if (blocked.length > 0) yield* step(s.markBlocked(blocked, true));
  if (unblocked.length > 0) yield* step(s.markBlocked(unblocked, false));
  yield* step(s.announce(EVERY_LINK));
}

/**
 * A tag renamed or taken off across links, in one transaction: the links carrying it are held first
 * (an edit of one waits, and cannot put back a tag list read before), then their tag rows change in
 * a statement per tag. Each changed link writes the events of an edit of its tags, read before and
 * after, only when some webhook wants them. Nothing is announced: no instance keeps a link's tags in
 * memory (the click path's Target has none: click-rules.ts), every list reads them from the rows.
 */
function* retagScript(s: LinkStatements, from: readonly string[], to: string | null, events: UpdateEvents | null): Steps<RetagOutcome> {
  const tagged = yield* step(s.lockTagged(from));
  if (to !== null) {
    if (tagged.length === 0) return "not_found";
    if (from.includes(to)) return { changed: [] }; // renamed onto itself: nothing changes (Shlink's TagService renameTag)
    if (yield* step(s.tagUsed(to))) return "taken";
  }
  if (tagged.length === 0) return { changed: [] };
  const seqs = tagged.map((t) => t.seq);
  const before = events === null ? [] : yield* step(s.readSeqs(seqs));
  for (const tag of from) yield* step(s.retagRows(tag, to));
  if (events !== null) {
    const after = yield* step(s.readSeqs(seqs));
    yield* step(s.writeEvents(after.flatMap((link, i) => events(link, before[i]!, ["tags"]))));
  }
  return { changed: tagged.map((t) => t.key) };
}
