// GET /<id>: the click. Answers from memory with a 302 and hands the click's raw facts to the recorder.
// A link with rules, a split, a password or a redirect code of its own takes the routed way
// (router.ts); a plain link's click never reads more than it did before they existed.

import type { Admission, LinkStore } from "../links/store.ts";
import { describeStorageFailure, isStorageFailure } from "../db/errors.ts";
import { unavailablePage } from "./unavailable.ts";
import { passwordHashWithinBounds } from "../links/password-hash.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { clickClient, type RequestClick } from "./click.ts";
import { isForm, spends } from "../links/click.ts";
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
import type { DomainEntry } from "../domains/directory.ts";
import type { Config } from "../config.ts";
import { isPreviewAgent } from "../visits/preview-agents.ts";
import { cardAnswer } from "./card-page.ts";
import { openAppAnswer } from "./open-app.ts";
import type { ClickOptOuts } from "../visits/opt-outs.ts";
import type { OrphanCounter } from "./orphan-visits.ts";

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
  /** the domain's not-found redirect, else --not-found-redirect, else the 404 page in the visitor's language (not-found.ts) */
  notFound: (request: Request, domain?: DomainEntry | null) => Response;
  /** a visit to no link handed to the recorder (orphan-visits.ts; docs/statistics.md: Visits to no link) */
  countOrphan: OrphanCounter;
  /** --base-url: a card's short URL (card-page.ts; only links with a card read it) */
  config: Pick<Config, "baseUrl">;
  /** --no-count-param, --do-not-track: clicks answered but not recorded (docs/statistics.md: Not counting some clicks) */
  optOuts: Pick<ClickOptOuts, "query" | "skips">;
};

const CACHE_CONTROL = "no-store, max-age=0";

type Answer = Response | Promise<Response>;
/** What is done with a link's admission; a module function, so no closure is made per click. */
type OnAdmission = (admission: Admission | null, click: RequestClick, deps: RedirectDeps) => Answer;

/** A GET or HEAD of /<id>, an id that looks like one (the click door and the app's route checked it). */
export function handleRedirect(click: RequestClick, deps: RedirectDeps): Answer {
  // A password-protected link's click is not spent here (the store knows it): only once its
  // password is right (unlock), never by its page or a wrong password.
  return admitted(deps.links.admit(click.id, spends(click), click.now), click, deps, answer);
}

/** A protected link's GET: the page without X-Link-Password, else the password checked, then the click spent. */
function unlock(hash: string, click: RequestClick, deps: RedirectDeps): Answer {
  const given = click.header(PASSWORD_HEADER);
  if (given === null) return passwordPage(click.request, 401, null);
  return checkPassword(given, hash, click, deps.passwords, clickClient(click, deps.trusted)).then((check) =>
    check.ok ? admitted(deps.links.admit(click.id, true, click.now, true), click, deps, answerUnlocked) : check.response,
  );
}

/**
 * A POST of /<id>: the password page's form. The right password is a click, answered with a 303
 * (a 307 or 308 would post the password on to the destination).
 */
export async function handlePasswordForm(click: RequestClick, deps: RedirectDeps): Promise<Response> {
  return admitted(deps.links.admit(click.id, false, click.now), click, deps, formPosted);
}

/** The form's password checked against the link's: anything but a protected link answers as it would. */
async function formPosted(seen: Admission | null, click: RequestClick, deps: RedirectDeps): Promise<Response> {
  const hash = seen === null ? null : "gone" in seen ? (seen.passwordHash ?? null) : (seen.route?.passwordHash ?? null);
  if (hash === null) return seeOther(click.url);
  if (seen !== null && !("gone" in seen) && seen.route?.passwordLocked) return lockedAnswer(click.request, false);
  const given = await postedPassword(click.request);
  if (given === null) return passwordPage(click.request, 401, null);
  const check = await checkPassword(given, hash, click, deps.passwords, clickClient(click, deps.trusted));
  return check.ok ? admitted(deps.links.admit(click.id, true, click.now, true), click, deps, spendUnlocked) : check.response;
}

/** The form's right password: the click spent, and a 303 to where the link's rules send. */
function spendUnlocked(a: Admission | null, click: RequestClick, deps: RedirectDeps): Answer {
  // Gone meanwhile (its last click taken by another, disabled): a 303 back to the link, which
  // says so, or to its fallback. The form's answers are 303s and pages, never a link's own 302 or 410.
  if (a !== null && "gone" in a && a.fallback !== undefined) return fallback(a.fallback, a.gone, click, deps);
  if (a === null || "gone" in a) return seeOther(click.url);
  if (a.route === null) return send((a.compiled ??= compileDestination(a.url)), 303, null, click, deps);
  return routed(a.route, click, deps, true);
}

/** Calls on with the admission, at once when it is there (SQLite, a cached link), else once the database answers. */
function admitted(admission: MaybePromise<Admission | null>, click: RequestClick, deps: RedirectDeps, on: OnAdmission): Answer {
  // SQLite answers from the cache or a synchronous read: no promise on the way. A database behind
  // the network (PostgreSQL, on a cache miss or a click limit) answers later.
  if (!(admission instanceof Promise)) return onAdmitted(admission, click, deps, on);
  return admission.then(
    (a) => onAdmitted(a, click, deps, on),
    (err: unknown) => {
      if (!isStorageFailure(err)) throw err;
      deps.log.error("a click could not be looked up: storage unavailable", { id: click.id, cause: describeStorageFailure(err) });
      return unavailablePage();
    },
  );
}

/** The click's link, known from here on: its seq is what a recorded visit is written under (a fallback's too). */
function onAdmitted(admission: Admission | null, click: RequestClick, deps: RedirectDeps, on: OnAdmission): Answer {
  if (admission !== null) click.linkSeq = admission.seq ?? 0; // a Gone without a fallback records nothing
  return on(admission, click, deps);
}

/** A GET or HEAD whose link's password (if any) is still to be given. */
function answer(admitted: Admission | null, click: RequestClick, deps: RedirectDeps): Answer {
  return answerLink(admitted, click, deps, false);
}

/** A GET whose X-Link-Password was right. */
function answerUnlocked(admitted: Admission | null, click: RequestClick, deps: RedirectDeps): Answer {
  return answerLink(admitted, click, deps, true);
}

/** `unlocked`: the link's password was given and is right. */
function answerLink(admitted: Admission | null, click: RequestClick, deps: RedirectDeps, unlocked: boolean): Answer {
  if (admitted === null) {
    deps.countOrphan(click.request, "invalid_short_url", click.server);
    return deps.notFound(click.request, click.domain);
  }
  // Disabled, expired, blocked or deleted: 410 and not a click, or the owner's fallback URL (a
  // protected link's only after its password, docs/security.md: Security).
  if ("gone" in admitted) {
    if (admitted.fallback === undefined) return goneOnDomain(admitted.gone, click, deps);
    if (admitted.passwordHash !== undefined && !unlocked) {
      // Stopped links are rare: their hash is judged here, not when cached (router.ts does that for live ones).
      return passwordGate(admitted.passwordHash, !passwordHashWithinBounds(admitted.passwordHash), click, deps);
    }
    return fallback(admitted.fallback, admitted.gone, click, deps);
  }
  // A chat app or social network drawing a card: the owner's card, not a click (docs/sharing.md: Preview cards).
  // A link without a card (nearly every one) pays for the null check only.
  if (admitted.card !== null) {
    if (isPreviewAgent(click.header("user-agent"))) return cardAnswer(admitted.card, click, deps);
    // Not an agent: the click a limited link's admission left unspent for it (store.ts), spent now.
    if (!unlocked && spends(click) && admitted.rules?.maxClicks != null && admitted.route?.passwordHash == null) {
      return spendNow(click, deps);
    }
    // People's answers need no Vary: User-Agent: each is no-store (the redirect, the password and
    // open-app pages), so no cache keeps one to hand to an agent; the card page says Vary itself.
  }
  // Rules, a split, a password or a redirect code of its own: decided by its route (router.ts).
  if (admitted.route !== null) return routed(admitted.route, click, deps, unlocked);
  return send((admitted.compiled ??= compileDestination(admitted.url)), 302, null, click, deps);
}

/** A person's click of a limited link with a card, admitted again to spend it (the store spends it as unlock's re-admission does). */
function spendNow(click: RequestClick, deps: RedirectDeps): Answer {
  return admitted(deps.links.admit(click.id, true, click.now, true), click, deps, answerSpent);
}

/**
 * The re-admission's answer: the link as it is now. A password set meanwhile (a PATCH committed
 * between the two admissions) still gates it (its fallback too); only the card branch is skipped.
 */
function answerSpent(a: Admission | null, click: RequestClick, deps: RedirectDeps): Answer {
  const gated = a !== null && ("gone" in a ? a.passwordHash !== undefined : a.route?.passwordHash != null);
  // gated: answerLink's card branch does not spend again (a protected link's click is spent on unlock).
  return answerLink(a, click, deps, !gated);
}

/** A stopped link with no fallback of its own: its domain's fallback for an expired or disabled link, else the 410 page. */
function goneOnDomain(reason: GoneReason, click: RequestClick, deps: RedirectDeps): Answer {
  const elsewhere = click.domain?.fallbackRedirect ?? null;
  if (elsewhere !== null && (reason === "expired" || reason === "disabled")) return fallback(elsewhere, reason, click, deps);
  return gonePage(reason, click.header("accept-language"));
}

/** A link with a route: its password first, then the destination its rules choose. */
function routed(route: LinkRoute, click: RequestClick, deps: RedirectDeps, unlocked: boolean): Answer {
  // A protected link: its HEAD gets the page, its GET the password check (unlock); the form's
  // (a POST) was checked before. A hash outside the bounds is never checked: locked, for all.
  if (route.passwordHash !== null && !unlocked) return passwordGate(route.passwordHash, route.passwordLocked, click, deps);
  return choose(route, click, deps);
}

/** A protected link not yet unlocked: locked for all (a hash outside the bounds), its GET the check, its HEAD the page. */
function passwordGate(hash: string, locked: boolean, click: RequestClick, deps: RedirectDeps): Answer {
  if (locked) return lockedAnswer(click.request, spends(click) && click.header(PASSWORD_HEADER) !== null);
  return spends(click) ? unlock(hash, click, deps) : passwordPage(click.request, 401, null);
}

/** The destination the link's rules or split choose for this click. */
function choose(route: LinkRoute, click: RequestClick, deps: RedirectDeps): Answer {
  // The country lookup and the day's salt are read once, on the first click that needs them.
  const ready = deps.clickFacts.ready(route.needs, click.now);
  return ready instanceof Promise ? ready.then(() => chosen(route, click, deps)) : chosen(route, click, deps);
}

function chosen(route: LinkRoute, click: RequestClick, deps: RedirectDeps): Answer {
  const choice = route.choose(deps.clickFacts.facts(click), click.now);
  return send(choice.destination, isForm(click) ? 303 : route.status, choice.route, click, deps);
}

/** The redirect to a destination, and (for a GET) the click handed to the recorder. */
function send(destination: Destination, status: number, route: string | null, click: RequestClick, deps: RedirectDeps): Answer {
  // The opt-out parameter is the click's, never the destination's: it is not passed on (opt-outs.ts).
  const query = deps.optOuts.query(click.query);
  const location = query !== "" ? withClickQuery(destination, query) : destination.location;
  // A click's query may add parameters the blocklist refuses (?url=https://phish…): the merged
  // Location is checked as a created URL would be. Only /regex/ entries can tell it from the link's
  // own URL (the host is the same), so a list without them, like plain clicks, costs nothing here.
  if (location !== destination.location) {
    const blocklist = deps.blocklist();
    if (blocklist.patterns > 0 && blocklist.matches(location)) return gonePage("blocked", click.header("accept-language"));
  }
  // A destination in an app (tg:, spotify:, …) that browsers do not follow from a redirect: a page that opens it.
  if (destination.app) return openAppAnswer(destination, location, route, click, deps);
  // no-store: a browser that cached the 302 would skip us on the next click and it would go uncounted.
  const response = new Response(null, { status, headers: { "Cache-Control": CACHE_CONTROL, Location: location } });
  // HEAD is what link checkers and previews send first: answer it, but it is not a click.
  if (!spends(click)) return response;
  const caughtUp = record(click, deps, destination.utm || (query !== "" && query.includes("utm_")) ? location : null, route);
  // The visit writer is far behind a database that answers: the click is queued, its answer waits (catch-up.ts).
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}

/** An expired or disabled link's fallback URL: not a click, but counted apart (stats: fallbackStats). */
function fallback(url: string, reason: GoneReason, click: RequestClick, deps: RedirectDeps): Answer {
  const status = isForm(click) ? 303 : 302;
  const destination = compileDestination(url);
  // A fallback into an app (--allow-schemes): its page, recorded as the fallback it is.
  if (destination.app) return openAppAnswer(destination, destination.location, fallbackText(reason), click, deps);
  const response = new Response(null, { status, headers: { "Cache-Control": CACHE_CONTROL, Location: destination.location } });
  if (!spends(click)) return response;
  const caughtUp = record(click, deps, null, fallbackText(reason));
  return caughtUp === undefined ? response : caughtUp.then(() => response);
}

/** The click handed to the recorder, in the recorder's message format (src/visits/click.ts). */
export function record(click: RequestClick, deps: RedirectDeps, destination: string | null, route: string | null) {
  // Opted out by its query or its headers: answered, and counted only in /metrics.
  if (deps.optOuts.skips(click.query, click) !== null) return undefined;
  // Forwarding headers matter only behind a trusted proxy; otherwise they are not even read.
  // X-Forwarded-For wins over Forwarded (client-ip.ts), so Forwarded is read only without it.
  const proxied = !deps.trusted.empty;
  const forwardedFor = proxied ? click.header("x-forwarded-for") : null;
  return deps.recorder.record({
    linkSeq: click.linkSeq,
    linkId: click.id,
    ts: click.now,
    userAgent: click.header("user-agent"),
    referer: click.header("referer"),
    peer: click.peer(),
    forwardedFor,
    forwarded: proxied && forwardedFor === null ? click.header("forwarded") : null,
    destination,
    route,
  });
}

function seeOther(url: string): Response {
  return new Response(null, { status: 303, headers: { Location: url, "Cache-Control": CACHE_CONTROL } });
}
