// GET /<id>: the click. Answers from memory with a 302 and hands the click's raw facts to the recorder.
// A link with rules, a split, a password or a redirect code of its own takes the routed way
// (router.ts); a plain link's click never reads more than it did before they existed.

import type { Admission, LinkStore } from "../links/store.ts";
import { describeStorageFailure, isStorageFailure } from "../db/errors.ts";
import { unavailablePage } from "./unavailable.ts";
import { looksLikeId } from "../links/alias.ts";
import { passwordHashWithinBounds } from "../links/password-hash.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { peerAddress, requestClient, type PeerServer } from "./request-origin.ts";
import { gonePage } from "./gone.ts";
import { compileDestination, withClickQuery, type Destination } from "../links/destination.ts";
import type { LinkRoute } from "../links/router.ts";
import type { GoneReason } from "../links/link.ts";
import { fallbackText } from "../visits/visit.ts";
import type { MaybePromise } from "../util/maybe.ts";
import type { ClickFactsSource } from "./click-facts.ts";
import { checkPassword, lockedAnswer, PASSWORD_HEADER, passwordPage, postedPassword, type PasswordGuard } from "./link-password.ts";
import type { Logger } from "../log.ts";
import type { Blocklist } from "../links/blocklist.ts";

export type RedirectDeps = {
  links: LinkStore;
  recorder: Pick<ClickRecorder, "record">;
  trusted: TrustedProxies;
  now: () => number;
  log: Pick<Logger, "error">;
  /** --blocklist, for a Location that a click's query changed */
  blocklist: () => Pick<Blocklist, "matches" | "patterns">;
  /** the facts redirect rules read (only links with rules ask) */
  clickFacts: ClickFactsSource;
  /** wrong link passwords, limited per address and per link */
  passwords: PasswordGuard;
  /** --not-found-redirect, or the 404 page in the visitor's language (not-found.ts) */
  notFound: (request: Request) => Response;
};

const CACHE_CONTROL = "no-store, max-age=0";

/** A GET or HEAD of /<id>. */
export function handleRedirect(request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl = request.url): Response | Promise<Response> {
  const click = request.method === "GET";
  const now = deps.now();
  if (!looksLikeId(id)) return deps.notFound(request);
  // A password-protected link's click is not spent here (the store knows it): only once its
  // password is right (unlock), never by its page or a wrong password.
  const admission = deps.links.admit(id, click, now);
  if (admission instanceof Promise) return admitted(admission, deps, id, (a) => answer(a, request, id, server, deps, requestUrl, click, now));
  return answer(admission, request, id, server, deps, requestUrl, click, now);
}

/** A protected link's GET: the page without X-Link-Password, else the password checked, then the click spent. */
function unlock(hash: string, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, now: number): Response | Promise<Response> {
  const given = request.headers.get(PASSWORD_HEADER);
  if (given === null) return passwordPage(request, 401, null);
  return checkPassword(given, hash, id, requestClient(server, request, deps.trusted), deps.passwords, now, request, false).then((check) =>
    check.ok ? admitted(deps.links.admit(id, true, now, true), deps, id, (a) => answer(a, request, id, server, deps, requestUrl, true, now, true)) : check.response,
  );
}

/**
 * A POST of /<id>: the password page's form. The right password is a click, answered with a 303
 * (a 307 or 308 would post the password on to the destination).
 */
export async function handlePasswordForm(request: Request, id: string, server: PeerServer, deps: RedirectDeps): Promise<Response> {
  const now = deps.now();
  if (!looksLikeId(id)) return deps.notFound(request);
  return admitted(deps.links.admit(id, false, now), deps, id, async (seen) => {
    // Anything but a protected link: the form has nothing to do here; the link answers as it would.
    const hash = seen === null ? null : "gone" in seen ? (seen.passwordHash ?? null) : (seen.route?.passwordHash ?? null);
    if (hash === null) return seeOther(request.url);
    if (seen !== null && !("gone" in seen) && seen.route?.passwordLocked) return lockedAnswer(request, false);
    const given = await postedPassword(request);
    if (given === null) return passwordPage(request, 401, null);
    const check = await checkPassword(given, hash, id, requestClient(server, request, deps.trusted), deps.passwords, now, request, true);
    return check.ok ? spendUnlocked(request, id, server, deps, now) : check.response;
  });
}

/** The form's right password: the click spent, and a 303 to where the link's rules send. */
function spendUnlocked(request: Request, id: string, server: PeerServer, deps: RedirectDeps, now: number): Response | Promise<Response> {
  return admitted(deps.links.admit(id, true, now, true), deps, id, (a) => {
    // Gone meanwhile (its last click taken by another, disabled): a 303 back to the link, which
    // says so, or to its fallback. The form's answers are 303s and pages, never a link's own 302 or 410.
    if (a !== null && "gone" in a && a.fallback !== undefined) return fallback(a.fallback, a.gone, request, id, server, deps, true, now, 303);
    if (a === null || "gone" in a) return seeOther(request.url);
    if (a.route === null) return send((a.compiled ??= compileDestination(a.url)), 303, null, request, id, server, deps, request.url, true, now);
    return routed(a.route, request, id, server, deps, request.url, true, now, 303, true);
  });
}

/** Calls on with the admission, at once when it is there (SQLite, a cached link), else once the database answers. */
function admitted(
  admission: MaybePromise<Admission | null>, deps: RedirectDeps, id: string, on: (a: Admission | null) => Response | Promise<Response>,
): Response | Promise<Response> {
  // SQLite answers from the cache or a synchronous read: no promise on the way. A database behind
  // the network (PostgreSQL, on a cache miss or a click limit) answers later.
  if (!(admission instanceof Promise)) return on(admission);
  return admission.then(on, (err: unknown) => {
    if (!isStorageFailure(err)) throw err;
    deps.log.error("a click could not be looked up: storage unavailable", { id, cause: describeStorageFailure(err) });
    return unavailablePage();
  });
}

/** `unlocked`: the link's password was given and is right. */
function answer(
  admitted: Admission | null, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, click: boolean, now: number, unlocked = false,
): Response | Promise<Response> {
  if (admitted === null) return deps.notFound(request);
  // Disabled, expired, blocked or deleted: 410 and not a click, or the owner's fallback URL (a
  // protected link's only after its password, docs/security.md: Security).
  if ("gone" in admitted) {
    if (admitted.fallback === undefined) return gonePage(admitted.gone, request.headers.get("accept-language"));
    if (admitted.passwordHash !== undefined && !unlocked) {
      // Stopped links are rare: their hash is judged here, not when cached (router.ts does that for live ones).
      if (!passwordHashWithinBounds(admitted.passwordHash)) return lockedAnswer(request, click && request.headers.has(PASSWORD_HEADER));
      return click ? unlock(admitted.passwordHash, request, id, server, deps, requestUrl, now) : passwordPage(request, 401, null);
    }
    return fallback(admitted.fallback, admitted.gone, request, id, server, deps, click, now);
  }
  // Rules, a split, a password or a redirect code of its own: decided by its route (router.ts).
  if (admitted.route !== null) return routed(admitted.route, request, id, server, deps, requestUrl, click, now, admitted.route.status, unlocked);
  return send((admitted.compiled ??= compileDestination(admitted.url)), 302, null, request, id, server, deps, requestUrl, click, now);
}

/** A link with a route: its password first, then the destination its rules choose. */
function routed(
  route: LinkRoute, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, click: boolean, now: number, status: number, unlocked: boolean,
): Response | Promise<Response> {
  // A protected link: its HEAD gets the page, its GET the password check (unlock); the form's
  // (a POST) was checked before. A hash outside the bounds is never checked: locked, for all.
  if (route.passwordHash !== null && !unlocked) {
    if (route.passwordLocked) return lockedAnswer(request, click && request.headers.has(PASSWORD_HEADER));
    return click ? unlock(route.passwordHash, request, id, server, deps, requestUrl, now) : passwordPage(request, 401, null);
  }
  return choose(route, request, id, server, deps, requestUrl, click, now, status);
}

function choose(route: LinkRoute, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, click: boolean, now: number, status: number): Response | Promise<Response> {
  const go = () => {
    const facts = deps.clickFacts.facts(request, server, requestUrl, id, now);
    const choice = route.choose(facts, now);
    return send(choice.destination, status, choice.route, request, id, server, deps, requestUrl, click, now, facts.peer());
  };
  // The country lookup and the day's salt are read once, on the first click that needs them.
  const ready = deps.clickFacts.ready(route.needs, now);
  return ready instanceof Promise ? ready.then(go) : go();
}

/** The redirect to a destination, and (for a GET) the click handed to the recorder. */
function send(
  destination: Destination, status: number, route: string | null, request: Request, id: string, server: PeerServer, deps: RedirectDeps, requestUrl: string, click: boolean, now: number,
  peer?: string,
): Response | Promise<Response> {
  const q = requestUrl.indexOf("?");
  const withQuery = q !== -1 && q < requestUrl.length - 1;
  const location = withQuery ? withClickQuery(destination, requestUrl.slice(q + 1)) : destination.location;
  // A click's query may add parameters the blocklist refuses (?url=https://phish…): the merged
  // Location is checked as a created URL would be. Only /regex/ entries can tell it from the link's
  // own URL (the host is the same), so a list without them, like plain clicks, costs nothing here.
  if (location !== destination.location) {
    const blocklist = deps.blocklist();
    if (blocklist.patterns > 0 && blocklist.matches(location)) return gonePage("blocked", request.headers.get("accept-language"));
  }
  // no-store: a browser that cached the 302 would skip us on the next click and it would go uncounted.
  const response = new Response(null, { status, headers: { "Cache-Control": CACHE_CONTROL, Location: location } });
  // HEAD is what link checkers and previews send first: answer it, but it is not a click.
  if (!click) return response;
  const caughtUp = record(request, id, peer ?? peerAddress(server, request), deps, now, destination.utm || (withQuery && requestUrl.includes("utm_", q)) ? location : null, route);
  // The visit writer is far behind a database that answers: the click is queued, its answer waits (catch-up.ts).
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}

/** An expired or disabled link's fallback URL: not a click, but counted apart (stats: fallbackStats). */
function fallback(url: string, reason: GoneReason, request: Request, id: string, server: PeerServer, deps: RedirectDeps, click: boolean, now: number, status = 302): Response | Promise<Response> {
  const response = new Response(null, { status, headers: { "Cache-Control": CACHE_CONTROL, Location: compileDestination(url).location } });
  if (!click) return response;
  const caughtUp = record(request, id, peerAddress(server, request), deps, now, null, fallbackText(reason));
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}

function record(request: Request, id: string, peer: string, deps: RedirectDeps, now: number, destination: string | null, route: string | null) {
  const headers = request.headers;
  // Forwarding headers matter only behind a trusted proxy; otherwise they are not even read.
  // X-Forwarded-For wins over Forwarded (client-ip.ts), so Forwarded is read only without it.
  const proxied = !deps.trusted.empty;
  const forwardedFor = proxied ? headers.get("x-forwarded-for") : null;
  return deps.recorder.record({
    linkId: id,
    ts: now,
    userAgent: headers.get("user-agent"),
    referer: headers.get("referer"),
    peer,
    forwardedFor,
    forwarded: proxied && forwardedFor === null ? headers.get("forwarded") : null,
    destination,
    route,
  });
}

function seeOther(url: string): Response {
  return new Response(null, { status: 303, headers: { Location: url, "Cache-Control": CACHE_CONTROL } });
}
