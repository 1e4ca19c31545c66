// Links as the service uses them: created under an alias or a generated id, changed, deleted, and
// admitted on every click from a bounded in-memory map (link-cache.ts), so that a click on a known
// link touches no database. The rules are here, once, and the order of each write's steps in
// change-script.ts; each engine stores the rows (LinkRepository, in src/db/<engine>/links.ts) and
// counts limited links' clicks its own way (ClickBudget).
//
// Everything the repository answers at once stays at once here (src/util/maybe.ts `then`): over
// SQLite a click, a create and an edit make no promise; over PostgreSQL they wait for the database.

import { generateId } from "./id.ts";
import { isReserved, looksLikeId } from "./alias.ts";
import { linkKey, looksLikeKey } from "../domains/link-key.ts";
import type { Link } from "./link.ts";
import { DELETED, targetOfLink, verdictBeforeBudget, type Admission, type Target } from "./click-rules.ts";
import { PLAIN, type Behaviour } from "./behaviour.ts";
import type { CardFields } from "./card.ts";
import { LinkCache } from "./link-cache.ts";
import { EVERY_LINK, type DeleteEvents, type LinkWrites, type UpdateEvents } from "./change-script.ts";
import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import type { OutboxEvent } from "../events/types.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";
import type { RetagOutcome } from "./tags.ts";

export class AliasTakenError extends Error {}
export class AliasRetiredError extends Error {}

/** A link to insert; what is left out is null (or no tags). */
export type NewLink = {
  url: string;
  /** null = generate an id */
  alias?: string | null;
  /** the stored domain ('' or absent: the default) */
  domain?: string;
  ownerKeyId?: number | null;
  ownerUserId?: number | null;
  /** the owner's name (not stored: the list reads it from the user or the key) */
  ownerName?: string | null;
  expiresAt?: number | null;
  maxClicks?: number | null;
  tags?: readonly string[];
  /** src/links/title.ts; absent or null: none */
  title?: string | null;
} & Partial<Behaviour> & Partial<CardFields>;

/** What PATCH may change; null clears expiresAt, maxClicks and the title (and the behaviour fields that may be absent). */
export type LinkChanges = { url?: string; expiresAt?: number | null; maxClicks?: number | null; disabled?: boolean; tags?: readonly string[]; title?: string | null } & Partial<Behaviour> & Partial<CardFields>;

export type { Admission, ClickRules, Target } from "./click-rules.ts";

/** Where a link can send visitors: its URL, and `also` the URLs of its rules, variants and fallback. */
export type LinkDestinations = { seq: number; url: string; blocked: boolean; also: string[] };

export { EVERY_LINK } from "./change-script.ts";

/** The links as the HTTP surfaces and the blocklist use them; a link's `id` below is its key (src/domains/link-key.ts). */
export type LinkStore = {
  /** Inserts a link (committed before returning); a generated id when alias is null. */
  create(link: NewLink, now: number): MaybePromise<Link>;
  /**
   * Inserts the links in one transaction (an import's slice), committed before returning: each one
   * as stored, or "taken" or "retired" for an alias that may not be used (the others are inserted).
   */
  createAll(links: readonly NewLink[], now: number): MaybePromise<(Link | "taken" | "retired")[]>;
  /**
   * What a request for id (of the shape looksLikeId allows) gets: the target, why it is gone, or
   * null for no such link. A click (GET) that is let through spends one of a limited link's clicks;
   * a password-protected link's only when `unlocked` (its password was right), never by its page.
   */
  admit(id: string, click: boolean, now: number, unlocked?: boolean): MaybePromise<Admission | null>;
  /** Clicks let through so far for a link with a click limit, as this process knows them (ahead of the recorder). */
  clicksAnswered(id: string): number | undefined;
  /** Lookups answered from memory and from the database, since start (for /metrics). */
  cacheStats(): { hits: number; misses: number };
  /** The whole link. */
  get(id: string): MaybePromise<Link | null>;
  /** Applies changes; null when there is no such link. */
  update(id: string, changes: LinkChanges): MaybePromise<Link | null>;
  /** Deletes the link, its visits and rollups, and retires its id; false when there is no such link. */
  remove(id: string, now: number): MaybePromise<boolean>;
  /** Every link's seq, destination and blocked flag (the blocklist's input). */
  destinations(): AsyncIterable<LinkDestinations>;
  /** Sets the blocked flag of links by seq (the blocklist's verdict). */
  setBlocked(blocked: readonly number[], unblocked: readonly number[]): MaybePromise<void>;
  /** A change made elsewhere (another instance): the link (or EVERY_LINK) is read again on its next click. */
  forget(id: string): void;
  /** Calls `listener` on each change of a link (id, or EVERY_LINK), made here or heard of from another instance. */
  onChange(listener: (id: string) => void): void;
  /** The ids of links search engines may follow (robots.txt), at most MAX_CRAWLABLE. */
  crawlable(): MaybePromise<string[]>;
  /** Every password-protected link's id and stored hash (the start-up report of locked links: locked-links.ts). */
  passwordHashes(): AsyncIterable<StoredPasswordHash>;
  /** Sets a fetched title where the link still has none, never over one a person gave meanwhile; true when set. */
  fillTitle(id: string, title: string): MaybePromise<boolean>;
  /** The key of the link with this seq (a peer API's stable id: seq survives renames and moves), or null. */
  keyOfSeq(seq: number): MaybePromise<string | null>;
  /** Renames a tag on every link (`to` null: takes the tags `from` off every link), with each changed link's events (src/links/tags.ts). */
  retag(from: readonly string[], to: string | null): MaybePromise<RetagOutcome>;
};

/** A protected link's stored hash, as the start-up report reads it. */
export type StoredPasswordHash = { id: string; passwordHash: string };

export type { DeleteEvents, UpdateEvents } from "./change-script.ts";

/**
 * The events of links' changes (src/events/link-events.ts), written in the change's transaction.
 * `updated`/`deleted` answer null when no webhook wants them: the write then reads nothing more.
 */
export type LinkEvents = {
  created(link: Link): OutboxEvent[];
  updated(): UpdateEvents | null;
  deleted(): DeleteEvents | null;
};

export const NO_LINK_EVENTS: LinkEvents = { created: () => [], updated: () => null, deleted: () => null };

/** Crawlable links robots.txt names; Google reads the first 500 KiB of it, about 20,000 such lines. */
export const MAX_CRAWLABLE = 10_000;

/**
 * The rows of links, as an engine stores them (src/db/<engine>/links.ts): the writes are the link
 * change script (change-script.ts) over the engine's statements, each one transaction.
 */
export type LinkRepository = LinkWrites & {
  /** The click path's entry for id: its target, DELETED for a retired id, null for no such link. */
  target(id: string): MaybePromise<Target | null>;
  read(id: string): MaybePromise<Link | null>;
  destinations(): AsyncIterable<LinkDestinations>;
  /** Ids of crawlable links, at most `limit`, in id order. */
  crawlable(limit: number): MaybePromise<string[]>;
  /** Every link with a password: its id and stored hash, oldest first. */
  passwordHashes(): AsyncIterable<StoredPasswordHash>;
  fillTitle(id: string, title: string): MaybePromise<boolean>;
  keyOfSeq(seq: number): MaybePromise<string | null>;
};

/**
 * How the clicks of a link with a click limit are let through. One process owns a SQLite file,
 * so it counts them itself (localClickBudget); instances sharing PostgreSQL count them in the
 * database, so that together they never let through more than the limit.
 */
export type ClickBudget = {
  /** The verdict for a limited link's request: the target while the budget has room (a click spends one), else expired. */
  spend(id: string, target: Target, click: boolean): MaybePromise<Admission>;
  answered(id: string): number | undefined;
  /** The link changed (its limit may have): what is known of it may be stale. */
  changed(id: string): void;
  /** The link was deleted. */
  deleted(id: string): void;
};

// Enough for the working set of a busy homelab (≈ 150 B per entry → ~15 MB at the bound).
export const DEFAULT_CACHE_ENTRIES = 100_000;
export const MAX_GENERATION_TRIES = 8;

export type LinkStoreOptions = { random?: RandomBytes; cacheEntries?: number; events?: LinkEvents };

/** What the store's functions share: the engine's rows and budget, the cache, the events, the id source. */
type Parts = { repo: LinkRepository; budget: ClickBudget; cache: LinkCache; events: LinkEvents; random: RandomBytes };

export function createLinkStore(repo: LinkRepository, budget: ClickBudget, options: LinkStoreOptions = {}): LinkStore {
  const cache = new LinkCache(options.cacheEntries ?? DEFAULT_CACHE_ENTRIES, budget);
  const parts: Parts = { repo, budget, cache, events: options.events ?? NO_LINK_EVENTS, random: options.random ?? cryptoRandomBytes };
  // Made once, not per click (the click path).
  const readTarget = (id: string) => repo.target(id);
  const verdict = (id: string, target: Target | null, click: boolean, now: number, unlocked: boolean): MaybePromise<Admission | null> => {
    if (target === null) return null;
    const before = verdictBeforeBudget(target, now);
    if (before !== undefined) return before;
    // A limited link's click is spent here, except a protected link's (spent once unlocked) and a
    // carded link's: a preview agent's GET is no click (redirect.ts spends a person's once it knows).
    return budget.spend(id, target, click && (unlocked || (target.route?.passwordHash == null && target.card === null)));
  };
  return {
    create: (link, now) => create(parts, link, now),
    createAll: (links, now) => createAll(parts, links, now),
    admit(id, click, now, unlocked = false) {
      const target = cache.resolve(id, readTarget);
      // The common case, a cached link: no promise on the way.
      return target instanceof Promise ? target.then((t) => verdict(id, t, click, now, unlocked)) : verdict(id, target, click, now, unlocked);
    },
    clicksAnswered: (id) => budget.answered(id),
    cacheStats: () => cache.stats(),
    get: (key) => (looksLikeKey(key) ? repo.read(key) : null),
    update: (id, changes) => update(parts, id, changes),
    remove: (id, now) => remove(parts, id, now),
    destinations: () => repo.destinations(),
    setBlocked: (blocked, unblocked) => then(repo.setBlocked(blocked, unblocked), () => cache.forget(EVERY_LINK)),
    forget: cache.forget,
    onChange: (listener) => cache.onChange(listener),
    crawlable: () => repo.crawlable(MAX_CRAWLABLE),
    passwordHashes: () => repo.passwordHashes(),
    // A card without a title of its own shows the link's (card.ts cardOf): the cached target forgets it.
    fillTitle: (key, title) => (looksLikeKey(key) ? then(repo.fillTitle(key, title), (wrote) => (wrote && cache.forget(key), wrote)) : false),
    keyOfSeq: (seq) => repo.keyOfSeq(seq),
    // No cache to forget: the click path never reads a link's tags (change-script.ts retagScript).
    retag: (from, to) => repo.retag(from, to, parts.events.updated()),
  };
}

function create(parts: Parts, link: NewLink, now: number): MaybePromise<Link> {
  if (link.alias == null) return createUnderNewId(parts, link, now, 0);
  const alias = link.alias;
  return then(insert(parts, alias, link, now), (outcome) => {
    if (outcome === "taken") throw new AliasTakenError(alias);
    if (outcome === "retired") throw new AliasRetiredError(alias);
    return outcome;
  });
}

/**
 * Inserts under id with the link's events: the link as stored (the row is exactly what is
 * inserted, built once for the events and the cache: no need to read it back), or why not.
 */
function insert(parts: Parts, id: string, link: NewLink, now: number): MaybePromise<Link | "taken" | "retired"> {
  const stored = storedLink(id, link, now);
  // The events are made once the insert gives the link its seq, which they are keyed by.
  return then(parts.repo.insert(id, link, now, (seq) => parts.events.created({ ...stored, seq })), (outcome) => (typeof outcome === "number" ? inserted(parts, stored, outcome) : outcome));
}

function storedLink(id: string, link: NewLink, now: number): Link {
  return {
    ...behaviourOf(link),
    seq: 0, domain: link.domain ?? DEFAULT_DOMAIN, id, url: link.url, createdAt: now, ownerKeyId: link.ownerKeyId ?? null, ownerUserId: link.ownerUserId ?? null, owner: link.ownerName ?? null, expiresAt: link.expiresAt ?? null, maxClicks: link.maxClicks ?? null,
    disabled: false, blocked: false, tags: [...new Set(link.tags ?? [])].sort(), title: link.title ?? null,
    cardTitle: link.cardTitle ?? null, cardDescription: link.cardDescription ?? null, cardImage: link.cardImage ?? null, totalClicks: 0, humanClicks: 0, lastClickAt: null,
  };
}

/** The link, now that its insert is committed under seq: cached for its clicks. */
function inserted({ cache }: Parts, stored: Link, seq: number): Link {
  stored.seq = seq;
  cache.set(linkKey(stored.domain, stored.id), targetOfLink(stored));
  return stored;
}

/**
 * The links in one transaction, each under its alias or a generated id. A generated id found
 * taken or retired is drawn again for that link alone, in an insert of its own (as create does).
 */
function createAll(parts: Parts, links: readonly NewLink[], now: number): MaybePromise<(Link | "taken" | "retired")[]> {
  const stored = links.map((link) => storedLink(link.alias ?? drawId(parts), link, now));
  const rows = links.map((link, i) => ({ id: stored[i]!.id, link, now, events: (seq: number) => parts.events.created({ ...stored[i]!, seq }) }));
  return then(parts.repo.insertAll(rows), (outcomes) =>
    allOf(outcomes.map((outcome, i) => {
      if (typeof outcome === "number") return inserted(parts, stored[i]!, outcome);
      return links[i]!.alias == null ? createUnderNewId(parts, links[i]!, now, 1) : outcome;
    })),
  );
}

const allOf = <T>(values: MaybePromise<T>[]): MaybePromise<T[]> => (values.some((v) => v instanceof Promise) ? Promise.all(values) : (values as T[]));
/** A generated id that is not reserved (whether it is free, the insert finds out). */
function drawId(parts: Parts): string {
  for (;;) {
    const id = generateId(parts.random);
    if (!isReserved(id)) return id;
  }
}

/** A generated id, tried up to MAX_GENERATION_TRIES times while the ids drawn are taken or retired. */
function createUnderNewId(parts: Parts, link: NewLink, now: number, tries: number): MaybePromise<Link> {
  if (tries >= MAX_GENERATION_TRIES) throw new Error(`no free id after ${MAX_GENERATION_TRIES} tries`);
  return then(insert(parts, drawId(parts), link, now), (outcome) => (typeof outcome === "string" ? createUnderNewId(parts, link, now, tries + 1) : outcome));
}

function update({ repo, cache, events }: Parts, id: string, changes: LinkChanges): MaybePromise<Link | null> {
  if (!looksLikeKey(id)) return null;
  return then(repo.update(id, changes, events.updated()), (found) => {
    if (!found) return null;
    cache.forget(id); // the next click reads the new values
    return repo.read(id);
  });
}

function remove({ repo, cache, budget, events }: Parts, id: string, now: number): MaybePromise<boolean> {
  if (!looksLikeKey(id)) return false;
  return then(repo.remove(id, now, events.deleted()), (removed) => {
    if (removed) {
      cache.forget(id);
      cache.set(id, DELETED);
      budget.deleted(id);
    }
    return removed;
  });
}

/** A new link's behaviour: what it was given, the rest as a plain link has it. */
export function behaviourOf(link: Partial<Behaviour>): Behaviour {
  return {
    rules: link.rules ?? PLAIN.rules, variants: link.variants ?? PLAIN.variants, passwordHash: link.passwordHash ?? PLAIN.passwordHash,
    redirectType: link.redirectType ?? PLAIN.redirectType, validFrom: link.validFrom ?? PLAIN.validFrom, fallbackUrl: link.fallbackUrl ?? PLAIN.fallbackUrl,
    crawlable: link.crawlable ?? PLAIN.crawlable,
  };
}

export { localClickBudget } from "./local-click-budget.ts";
