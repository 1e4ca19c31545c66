// A password-protected link (docs/redirect-rules.md: Redirect rules): a visitor gets a small page in their language
// with one field, posted back to the short link; a script sends the password in X-Link-Password.
// Checked against the argon2id hash (Bun.password, on its worker threads: the event loop goes on
// answering clicks meanwhile), one guess per client address at a time through the process's
// bounded queue (password-queue.ts). Wrong attempts are limited per address and per link, so
// guessing costs an attacker time and our CPU and memory stay bounded. A hash outside the bounds
// (src/links/password-hash.ts) is never verified: the link answers locked (423) until its owner
// sets a new password. The password is never logged.

import { pickLanguage } from "../lang.ts";
import { renderPassword, renderPasswordLocked } from "../../web/server/pages.ts";
import { ENTRIES } from "./web-assets.generated.ts";
import { HTML_HEADERS, PASSWORD_PAGE_CSP } from "./web.ts";
import { apiError } from "./responses.ts";
import { mediaType, readFormFields } from "./form-body.ts";
import { MAX_PASSWORD_LENGTH } from "../links/behaviour.ts";
import { clientKey, createRateLimiter, type RateLimiter } from "./rate-limit.ts";
import { passwordHashWithinBounds } from "../links/password-hash.ts";
import { isForm } from "../links/click.ts";
import type { RequestClick } from "./click.ts";
import { createPasswordQueue, QUEUE_RETRY_SECONDS, type PasswordQueue } from "./password-queue.ts";

/** Wrong passwords a client address may try per minute, over all links. */
const WRONG_PER_ADDRESS = 10;
/** Wrong passwords one link takes per minute, from everyone (a guessing farm of many addresses). */
const WRONG_PER_LINK = 60;
export const PASSWORD_HEADER = "x-link-password";

export type PasswordGuard = { perAddress: RateLimiter; perLink: RateLimiter; queue: PasswordQueue };

/**
 * Each check takes its token before the hash is verified (attempts sent all at once are not all
 * checked before the first is counted), and a right password gives it back: only wrong ones count.
 */
export function createPasswordGuard(queue: PasswordQueue = createPasswordQueue()): PasswordGuard {
  return { perAddress: createRateLimiter(WRONG_PER_ADDRESS), perLink: createRateLimiter(WRONG_PER_LINK), queue };
}

/** The verdict on a password tried: go on, or the answer that says why not. */
export type PasswordCheck = { ok: true } | { ok: false; response: Response };

/**
 * Checks a password given for a click's link, from `client` (its address after the trusted-proxy
 * rule). The form's (a POST) is answered as the HTML page, a script's (X-Link-Password) as JSON.
 * Every guess is answered: at once when refused, else after its verify, which waits its turn at
 * most LONGEST_WAIT_MS (password-queue.ts).
 */
export async function checkPassword(given: string, hash: string, click: RequestClick, guard: PasswordGuard, client: string): Promise<PasswordCheck> {
  const { id, now, request } = click;
  const page = isForm(click);
  // Never verified, whatever stored it (the route says so before any guess: redirect.ts).
  if (!passwordHashWithinBounds(hash)) return { ok: false, response: lockedAnswer(request, !page) };
  // A place first: a second guess from an address whose first is still in the queue, or any guess
  // past the queue's bound, is refused before it costs a token or a hash.
  const place = guard.queue.enter(clientKey(client));
  if (place === "busy" || place === "full") return { ok: false, response: tooMany(request, page, QUEUE_RETRY_SECONDS, "too many password checks at once") };
  try {
    // The address's token, then the link's, spent before the verify; without the link's, the
    // address's is given back (it tried nothing).
    let refused = guard.perAddress.take(client, now);
    if (refused.allowed) {
      refused = guard.perLink.take(id, now);
      if (!refused.allowed) guard.perAddress.refund(client);
    }
    if (!refused.allowed) return { ok: false, response: tooMany(request, page, refused.retryAfterSeconds, "too many wrong passwords") };
    if (!(await place.turn())) {
      // Waited its longest without a turn: nothing was tried, so nothing is counted.
      guard.perAddress.refund(client);
      guard.perLink.refund(id);
      return { ok: false, response: tooMany(request, page, QUEUE_RETRY_SECONDS, "too many password checks at once") };
    }
    let right = false;
    try {
      right = given.length > 0 && given.length <= MAX_PASSWORD_LENGTH && (await Bun.password.verify(given, hash));
    } catch {
      right = false; // a hash this build cannot read: no password opens it (an import says so first)
    }
    if (right) {
      guard.perAddress.refund(client);
      guard.perLink.refund(id);
      return { ok: true };
    }
  } finally {
    place.leave();
  }
  if (page) return { ok: false, response: passwordPage(request, 403, { wrong: true }) };
  return { ok: false, response: apiError(403, "password_wrong", `the ${PASSWORD_HEADER} header does not hold this link's password`) };
}

/** 429 with Retry-After: the page again for a browser, `rate_limited` for a script. */
function tooMany(request: Request, page: boolean, wait: number, why: string): Response {
  const retry = String(wait);
  if (page) return passwordPage(request, 429, { retryAfterSeconds: wait }, { "Retry-After": retry });
  return apiError(429, "rate_limited", `${why}; try again in ${retry} s`, undefined, { "Retry-After": retry });
}

const lockedPages = new Map<string, string>();

/**
 * A link whose stored hash is outside the bounds: 423, as JSON `password_locked` for a script
 * (`json`: it sent X-Link-Password), else a page in the visitor's language. Not a click.
 */
export function lockedAnswer(request: Request, json: boolean): Response {
  if (json) return apiError(423, "password_locked", "this link's password can no longer be checked; its owner must set a new one");
  const lang = pickLanguage(request.headers.get("accept-language"));
  let page = lockedPages.get(lang);
  if (page === undefined) lockedPages.set(lang, (page = renderPasswordLocked(lang, ENTRIES)));
  return new Response(page, {
    status: 423,
    headers: { ...HTML_HEADERS, "Content-Language": lang, Vary: "Accept-Language", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
  });
}

/** The password a browser posted with the page's form, or null for a body that holds none. */
export async function postedPassword(request: Request): Promise<string | null> {
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") return null;
  const body = await readFormFields(request, PASSWORD_FIELD);
  return body.ok && typeof body.fields.password === "string" ? body.fields.password : null;
}
const PASSWORD_FIELD = { password: "text" } as const;

/**
 * The page asking for the password (401 before any attempt). The form posts to the short link
 * itself; after a right password the browser is sent on by a 303 to the destination, which the
 * page's CSP must allow as a form's target (browsers apply form-action to its redirects).
 */
export function passwordPage(request: Request, status: 401 | 403 | 429, notice: Parameters<typeof renderPassword>[2], extra: Record<string, string> = {}): Response {
  const lang = pickLanguage(request.headers.get("accept-language"));
  const url = new URL(request.url);
  const page = renderPassword(lang, url.pathname + url.search, notice, ENTRIES);
  return new Response(page, {
    status,
    headers: {
      ...HTML_HEADERS,
      "Content-Security-Policy": PASSWORD_PAGE_CSP,
      "Content-Language": lang,
      Vary: "Accept-Language",
      "Cache-Control": "no-store",
      // Link previews and search engines: nothing here to show or keep.
      "X-Robots-Tag": "noindex",
      ...extra,
    },
  });
}
