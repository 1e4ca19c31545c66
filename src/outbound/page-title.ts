// Fetching a page's title (docs/link-titles.md: How a title is fetched): a GET through the one
// outbound address policy (reach.ts, pinned-fetch.ts), each redirect's next hop checked again,
// within one time bound for the whole chain, reading at most a bounded prefix of an HTML page and
// stopping at </title>. Nothing but the title is kept from the answer.

import { pinnedFetch } from "./pinned-fetch.ts";
import { OutboundRefused, type OutboundPolicy, type Resolve } from "./reach.ts";
import { isHtml, titleEnd, titleOfHtml } from "./html-title.ts";

/** What fetching a title came to; only `titled` holds anything of the page. */
export type PageTitle =
  | { outcome: "titled"; text: string }
  /** answered, with nothing to read: not 2xx, not HTML, no <title> within the bytes read */
  | { outcome: "untitled" }
  /** an address the policy refuses, before connecting */
  | { outcome: "refused"; reason: string }
  /** unresolved, unreachable, late, or too many redirects */
  | { outcome: "failed"; reason: string };

export type PageTitleOptions = {
  policy: OutboundPolicy;
  userAgent: string;
  /** the whole chain: every hop, its answer and the bytes read (each name's lookup has its own 5 s too) */
  timeoutMs?: number;
  /** bytes of a page read at most (after any Content-Encoding is undone) */
  maxBytes?: number;
  maxRedirects?: number;
  resolve?: Resolve;
};

export const TITLE_FETCH_BOUNDS = { timeoutMs: 5_000, maxBytes: 256 * 1024, maxRedirects: 5 } as const;

/** The title of the page at `target`, following its redirects; never throws. */
export async function fetchPageTitle(target: string, options: PageTitleOptions): Promise<PageTitle> {
  const bounds = { ...TITLE_FETCH_BOUNDS, ...options };
  const deadline = Date.now() + bounds.timeoutMs;
  let url = requestUrl(target);
  if (url === null) return { outcome: "untitled" };
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await pinnedFetch(url, { headers: { "User-Agent": options.userAgent, Accept: "text/html,application/xhtml+xml;q=0.9" }, redirect: "manual", timeoutMs: Math.max(1, deadline - Date.now()) }, options.policy, options.resolve);
    } catch (err) {
      if (err instanceof OutboundRefused) return { outcome: "refused", reason: err.message };
      // OutboundUnresolved, a refused connection, or the time bound (TimeoutError): each says which.
      return { outcome: "failed", reason: err instanceof Error ? err.message : String(err) };
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => {});
      if (hop >= bounds.maxRedirects) return { outcome: "failed", reason: `more than ${bounds.maxRedirects} redirects` };
      url = requestUrl(location, url);
      if (url === null) return { outcome: "untitled" };
      continue;
    }
    return await titleOfResponse(response, bounds.maxBytes);
  }
}

/** An http(s) URL to ask, without credentials or fragment (a title fetch logs in nowhere); null for anything else. */
function requestUrl(text: string, base?: URL): URL | null {
  const url = URL.parse(text, base);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  url.username = "";
  url.password = "";
  url.hash = "";
  return url;
}

async function titleOfResponse(response: Response, maxBytes: number): Promise<PageTitle> {
  const type = response.headers.get("content-type");
  if (!response.ok || !isHtml(type) || response.body === null) {
    await response.body?.cancel().catch(() => {});
    return { outcome: "untitled" };
  }
  let bytes: Uint8Array;
  try {
    bytes = await readUntilTitle(response.body, maxBytes);
  } catch (err) {
    return { outcome: "failed", reason: err instanceof Error ? err.message : String(err) };
  }
  const text = titleOfHtml(bytes, type);
  return text === null ? { outcome: "untitled" } : { outcome: "titled", text };
}

/** The page's first bytes: until the title's end tag, the end of the page, or maxBytes; the rest is never read. */
async function readUntilTitle(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const buffer = new Uint8Array(maxBytes);
  let length = 0;
  try {
    while (length < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = value.subarray(0, maxBytes - length);
      buffer.set(take, length);
      const searchedTo = length;
      length += take.length;
      if (titleEnd(buffer.subarray(0, length), searchedTo) !== -1) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return buffer.subarray(0, length);
}
