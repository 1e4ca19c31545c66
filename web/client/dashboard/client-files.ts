// The ready-made clients for our own API (docs/clients.md: Ready-made clients): the ShareX custom
// uploader and the bookmarklet, built from the address the dashboard was reached at. Pure text:
// the tests build the same files and replay what the clients send. Neither ever holds a key: the
// server keeps keys only as hashes, and a file the page hands out must not carry a secret.

/** What the user replaces with their key in ShareX (its custom uploader settings, "Headers"). */
export const SHAREX_KEY_PLACEHOLDER = "PASTE-YOUR-API-KEY-HERE";

/**
 * A ShareX custom uploader (.sxcu, the syntax of ShareX 15 and later) for POST /api/create: the
 * URL as JSON (ShareX JSON-escapes `{input}` in a JSON body), the key as a bearer header, the short
 * URL read from the answer's `data.shortUrl` and our error text from `error`.
 */
export function sharexUploader(origin: string): string {
  const host = new URL(origin).host;
  const uploader = {
    Version: "15.0.0",
    Name: `${host} (shortener)`,
    DestinationType: "URLShortener",
    RequestMethod: "POST",
    RequestURL: `${origin}/api/create`,
    Headers: { Authorization: `Bearer ${SHAREX_KEY_PLACEHOLDER}` },
    Body: "JSON",
    Data: '{"url":"{input}"}',
    URL: "{json:data.shortUrl}",
    ErrorMessage: "{json:error}",
  };
  return JSON.stringify(uploader, null, 2) + "\n";
}

/** The file name ShareX users expect: the host, then what it is. */
export const sharexFileName = (origin: string) => `${new URL(origin).host.replace(/[^a-z0-9.-]/gi, "_")}-shortener.sxcu`;

/**
 * The bookmarklet: opens this dashboard's "New link" dialog with the page's address and title
 * filled in (`?shorten=&title=`, read by dashboard/prefill.ts). The person checks and creates it;
 * nothing is made without their click, and the bookmarklet holds no key.
 */
export function bookmarklet(origin: string, lang: string): string {
  const target = JSON.stringify(`${origin}/${lang}/links?shorten=`);
  const code = `location.href=${target}+encodeURIComponent(location.href)+"&title="+encodeURIComponent(document.title)`;
  // A javascript: URL is percent-decoded before it runs: encoded, its quotes and the origin's
  // characters survive being a bookmark's address.
  return `javascript:${encodeURIComponent(`void(${code})`)}`;
}
