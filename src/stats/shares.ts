// Share links (docs/statistics.md: Sharing statistics): secret read-only links to one link's
// statistics. A token is 32 random bytes in base64url (256 bits); only its SHA-256 is stored, and
// the hash is how a token is found, so a lookup costs one hash and one indexed read whatever the
// token looks like (no early answer for a malformed one: guessing learns nothing from the time).

import { hashSecret } from "../auth/keys.ts";
import { throttledTouch, type LastUsedWrite } from "../auth/last-used.ts";
import { cryptoRandomBytes, type RandomBytes } from "../util/random.ts";
import { then, type MaybePromise } from "../util/maybe.ts";

/** A label says who a share was made for ("the client", "the board"); at most this many characters. */
export const MAX_SHARE_LABEL = 100;
/** Shares a link may have at once: enough for every audience, few enough for one list. */
export const MAX_SHARES_PER_LINK = 50;
/** last_used_at is written at most this often per share (by this process), never awaited. */
export const SHARE_TOUCH_INTERVAL_MS = 60_000;
const TOKEN_BYTES = 32;

export type Share = { id: number; linkSeq: number; label: string; createdAt: number; expiresAt: number | null; lastUsedAt: number | null };

/** A share found by its token, with the key of its link (src/domains/link-key.ts). */
export type FoundShare = { share: Share; linkKey: string };

/** The rows of shares, as an engine stores them (src/db/<engine>/shares.ts). */
export type ShareRepository = {
  insert(row: { linkSeq: number; hash: Uint8Array; label: string; createdAt: number; expiresAt: number | null }): MaybePromise<Share>;
  /** The link's shares, oldest first. */
  list(linkSeq: number): MaybePromise<Share[]>;
  /** Deletes the link's share with this id; false when it has none. */
  remove(linkSeq: number, id: number): MaybePromise<boolean>;
  /** The share with this token hash and its link's key; null when none (or its link is gone). */
  byHash(hash: Uint8Array): MaybePromise<FoundShare | null>;
  setLastUsed: LastUsedWrite<number>;
};

export type ShareStore = {
  /** A new share: its token (shown once) and its record. */
  create(row: { linkSeq: number; label: string; expiresAt: number | null }, now: number): MaybePromise<{ token: string; share: Share }>;
  list(linkSeq: number): MaybePromise<Share[]>;
  revoke(linkSeq: number, id: number): MaybePromise<boolean>;
  /** The share a token opens now: null for an unknown, revoked or expired one. */
  open(token: string, now: number): MaybePromise<FoundShare | null>;
  /** Records a use, at most once a minute per share; best effort, never awaited. */
  touch(id: number, now: number): void;
};

export function generateShareToken(random: RandomBytes = cryptoRandomBytes): string {
  return Buffer.from(random(TOKEN_BYTES)).toString("base64url");
}

/** Whether a share still opens at `now`. */
export function shareOpen(share: Pick<Share, "expiresAt">, now: number): boolean {
  return share.expiresAt === null || share.expiresAt > now;
}

export function createShareStore(repo: ShareRepository, random: RandomBytes = cryptoRandomBytes): ShareStore {
  return {
    create(row, now) {
      const token = generateShareToken(random);
      return then(repo.insert({ ...row, hash: hashSecret(token), createdAt: now }), (share) => ({ token, share }));
    },
    list: (linkSeq) => repo.list(linkSeq),
    revoke: (linkSeq, id) => repo.remove(linkSeq, id),
    open: (token, now) => then(repo.byHash(hashSecret(token)), (found) => (found !== null && shareOpen(found.share, now) ? found : null)),
    touch: throttledTouch(SHARE_TOUCH_INTERVAL_MS, repo.setLastUsed),
  };
}

/** A label as given: absent or null is none (""); a string of at most MAX_SHARE_LABEL characters, trimmed. */
export function parseShareLabel(raw: unknown): { ok: true; value: string } | { ok: false; error: string } {
  if (raw === undefined || raw === null) return { ok: true, value: "" };
  if (typeof raw !== "string") return { ok: false, error: "label must be a string" };
  const label = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(label)) return { ok: false, error: "label must not hold control characters" };
  if ([...label].length > MAX_SHARE_LABEL) return { ok: false, error: `label may have at most ${MAX_SHARE_LABEL} characters` };
  return { ok: true, value: label };
}
