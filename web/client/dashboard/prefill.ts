// A link to shorten handed over in the address (`?shorten=<url>&title=<text>`, what the bookmarklet
// opens: client-files.ts). It is taken out of the address at once (a reload or a shared address
// does not bring it back) and kept in sessionStorage until someone is signed in, so a sign-in
// first (or a round trip to the identity provider) does not lose it. It only fills the "New link"
// dialog: nothing is created until the person clicks Create, so a page that links here with
// someone else's URL makes nothing on its own.
export type Prefill = { url: string; title: string };

const KEY = "shortener.prefill";
/** the prefill when sessionStorage refused it */
let pending: Prefill | null = null;

/**
 * A page's title as the server would keep it (src/links/title.ts: whitespace collapsed, at most
 * 500 code points): a longer one would be refused, and the person could not see why.
 */
function fitted(text: string): string {
  return [...text.replace(/\s+/g, " ").trim()].slice(0, 500).join("");
}

/** Moves `?shorten=&title=` from the address into the tab's storage. */
export function takePrefill(): void {
  const params = new URLSearchParams(location.search);
  const url = params.get("shorten");
  if (url === null) return;
  const title = fitted(params.get("title") ?? "");
  params.delete("shorten");
  params.delete("title");
  const rest = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ url, title }));
  } catch {
    // Storage refused (a private window's quota): the dialog still opens if the session is there now.
    pending = { url, title };
  }
}

/** The link waiting to be shortened, once: read and forgotten. */
export function prefillOnce(): Prefill | null {
  let found = pending;
  pending = null;
  try {
    const stored = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (stored !== null) found = JSON.parse(stored) as Prefill;
  } catch {
    // Unreadable storage: nothing to prefill from it.
  }
  return found !== null && typeof found.url === "string" && typeof found.title === "string" ? found : null;
}
