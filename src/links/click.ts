// A click on a short link as one value: what the door knows of the request that asks for a link
// (docs/architecture.md: The click as one value). Built once per request at the door
// (src/http/click.ts) and passed whole down the redirect; nothing on the way threads its parts.
// What every click reads is a field; what only some read (the host, the path, a header, the
// socket peer) is read from the request when first asked, so a plain click pays for none of it.
//
// Not the record handed to the recorder (src/visits/click.ts): that is what a spent click leaves
// behind, packed for the other thread; this is the request, on the click thread.

export interface Click {
  /** the link's key: its alias from the path, on the click's domain (src/domains/link-key.ts) */
  readonly id: string;
  /** GET and HEAD at the door; POST is the password page's form (link-password.ts) */
  readonly method: string;
  /** when the click arrived (ms since the epoch): one clock read a click */
  readonly now: number;
  /** the request's URL as read once: scheme, host, path and query */
  readonly url: string;
  /** the query string without its "?", "" when there is none */
  readonly query: string;
  /** the host the request names (its Host header, as the server put it in the URL) */
  host(): string;
  /** the path, "/" and the alias as sent */
  path(): string;
  /** a request header, or null */
  header(name: string): string | null;
  /** the socket peer's address, read once (the rules and the record both need it) */
  peer(): string;
}

/** Whether answering it spends the link's click: a GET, or the form's right password; never a HEAD. */
export function spends(click: Pick<Click, "method">): boolean {
  return click.method !== "HEAD";
}

/** The password page's form (a POST): answered with 303s and pages, never the link's own 302 or 410. */
export function isForm(click: Pick<Click, "method">): boolean {
  return click.method === "POST";
}
