// Where a click is sent: the link's URL, with the click's own query string added. Worked out once
// per link when it is first clicked (compileDestination) and kept with its cache entry, so that a
// click costs a string concatenation, not a parse.
//
// The click's query may only add parameters: one the link's URL already has is left out, so that a
// click cannot replace what the link's owner set (`?next=` of a login link, say). The result is
// capped (MAX_LOCATION): a click query that would make it longer is left out whole. A destination
// in an app (--allow-schemes) never takes a click's query: `mailto:?subject=…` would change the mail.

/** The longest Location sent: proxies in front keep response headers in 4 or 8 KiB buffers (nginx's defaults). */
export const MAX_LOCATION = 4000;

export type Destination = {
  /** the Location of a click without a query: the URL in ASCII (punycode host, percent-encoded) */
  readonly location: string;
  /** the location up to its fragment, and the fragment ("" or "#…") */
  readonly head: string;
  readonly fragment: string;
  /** what goes between the head and a click's query: "?" (no query of its own), "&", or "" (head ends in ? or &) */
  readonly joiner: string;
  /** the names of the link's own query parameters (decoded); null when it has none; every name for an app's URL (nothing is added) */
  readonly ownNames: ReadonlySet<string> | null;
  /** whether the link's own URL carries utm_* parameters (then every click's Location is read for them) */
  readonly utm: boolean;
  /**
   * An app's scheme (--allow-schemes) that browsers do not follow from a redirect: answered with a
   * page that opens the app (src/http/open-app.ts); false for http(s) and the schemes a 302 serves.
   */
  readonly app: boolean;
  /** for an `app` destination: the web page "Continue in the browser" leads to (the link's http(s) fallback URL); else null */
  readonly browser: string | null;
};

/**
 * The schemes a 302 serves (docs/sharing.md: Links into apps): phones and browsers hand mail,
 * calls and texts to their own handler, and Chrome opens an intent: (or its fallback) from a redirect.
 */
const REDIRECTED_SCHEMES: ReadonlySet<string> = new Set(["mailto", "tel", "sms", "intent"]);

/**
 * The own names of an app's URL: every name, so a click's query adds nothing (withClickQuery drops
 * the pairs whose names the link has). The http(s) path pays nothing for it: no new check.
 */
class EveryName extends Set<string> {
  override has(): boolean {
    return true;
  }
}
const EVERY_NAME: ReadonlySet<string> = new EveryName();
const WEB = /^https?:/i;

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** A stored URL as Location wants it: header values are ASCII, so an IRI is sent in its punycode/percent form. */
function ascii(url: string): string {
  return PRINTABLE_ASCII.test(url) ? url : new URL(url).href;
}

/** `fallbackUrl`: the link's, offered beside an app's URL when it is a web page. */
export function compileDestination(url: string, fallbackUrl?: string | null): Destination {
  const location = ascii(url);
  if (!WEB.test(location)) return appDestination(location, fallbackUrl);
  const hashAt = location.indexOf("#");
  const head = hashAt === -1 ? location : location.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : location.slice(hashAt);
  const queryAt = head.indexOf("?");
  const ownNames = queryAt === -1 ? null : new Set(head.slice(queryAt + 1).split("&").filter((p) => p !== "").map(nameOf));
  const joiner = queryAt === -1 ? "?" : head.endsWith("?") || head.endsWith("&") ? "" : "&";
  return { location, head, fragment, joiner, ownNames, utm: queryAt !== -1 && head.includes("utm_", queryAt), app: false, browser: null };
}

/** An app's URL (--allow-schemes): kept whole, a click's query never merged into it. */
function appDestination(location: string, fallbackUrl: string | null | undefined): Destination {
  const scheme = location.slice(0, location.indexOf(":")).toLowerCase();
  const app = !REDIRECTED_SCHEMES.has(scheme);
  const browser = app && fallbackUrl != null && WEB.test(fallbackUrl) ? ascii(fallbackUrl) : null;
  return { location, head: location, fragment: "", joiner: "", ownNames: EVERY_NAME, utm: /[?&]utm_/.test(location), app, browser };
}

/** The Location for a click whose request had this query (the text after "?", not empty). */
export function withClickQuery(d: Destination, query: string): string {
  let added = PRINTABLE_ASCII.test(query) ? query : asciiQuery(query);
  if (d.ownNames !== null && sharesName(d.ownNames, added)) {
    added = added.split("&").filter((p) => p !== "" && !d.ownNames!.has(nameOf(p))).join("&");
    if (added === "") return d.location;
  }
  const location = d.head + d.joiner + added + d.fragment;
  return location.length > MAX_LOCATION ? d.location : location;
}

/** Whether a query names one of these parameters (or has an empty pair): a scan, no arrays made. */
function sharesName(names: ReadonlySet<string>, query: string): boolean {
  for (let start = 0; start <= query.length; ) {
    let end = query.indexOf("&", start);
    if (end === -1) end = query.length;
    if (end === start) return true; // an empty pair: dropped on the way
    const eq = query.indexOf("=", start);
    if (names.has(nameOf(query.slice(start, eq !== -1 && eq < end ? eq : end)))) return true;
    start = end + 1;
  }
  return false;
}

/** A query pair's name, decoded as a form would be. */
function nameOf(pair: string): string {
  const eq = pair.indexOf("=");
  return formDecoded(eq === -1 ? pair : pair.slice(0, eq));
}

/** Text of a query decoded as a form would be (`+` is a space), or as it is when it cannot be. */
function formDecoded(raw: string): string {
  if (!raw.includes("%") && !raw.includes("+")) return raw;
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return raw;
  }
}

/**
 * Whether a request URL's query has the parameter (with the value, when given), decoded as a form
 * would be: a scan of its pairs, nothing parsed into a structure (a redirect rule's query condition).
 */
export function queryHas(url: string, key: string, value: string | undefined): boolean {
  const q = url.indexOf("?");
  if (q === -1) return false;
  const end = url.indexOf("#", q);
  const query = end === -1 ? url.slice(q + 1) : url.slice(q + 1, end);
  for (const pair of query.split("&")) {
    if (pair === "" || nameOf(pair) !== key) continue;
    const eq = pair.indexOf("=");
    if (value === undefined || formDecoded(eq === -1 ? "" : pair.slice(eq + 1)) === value) return true;
  }
  return false;
}

/** A query with text outside printable ASCII, percent-encoded as a URL parser would. */
function asciiQuery(query: string): string {
  return new URL(`http://h/?${query}`).search.slice(1);
}
