// The text of a page's <title> (docs/link-titles.md: How a title is fetched): from the bytes read
// of an HTML page, in the charset its Content-Type names, else the one a byte-order mark or a
// <meta charset> / http-equiv in the page names, else UTF-8; entities decoded. The raw text, not
// yet fitted: fitTitle (src/links/title.ts) collapses its whitespace and bounds it.

import { decodeEntities } from "./html-entities.ts";

/** Bytes seen as text one byte a character: tags and the names in them are ASCII in every charset this reads. */
const ASCII_VIEW = new TextDecoder("windows-1252");

/** The charset a Content-Type names (`text/html; charset="ISO-8859-1"`), or null. */
export function headerCharset(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? "");
  return match ? match[2]!.toLowerCase() : null;
}

/** Whether a Content-Type is an HTML page (HTML or XHTML); anything else has no <title> to read. */
export function isHtml(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "text/html" || type === "application/xhtml+xml";
}

/** Where the title's end tag ends in bytes read so far, searched from `from`; -1 while not there (the reader stops there). */
export function titleEnd(bytes: Uint8Array, from = 0): number {
  const start = Math.max(0, from - 8);
  const match = /<\/title\s*>/i.exec(ASCII_VIEW.decode(bytes.subarray(start)));
  return match ? start + match.index + match[0].length : -1;
}

/** The <title>'s text of the page's first bytes, entities decoded; null when it has none (or an empty one). */
export function titleOfHtml(bytes: Uint8Array, contentType: string | null): string | null {
  const raw = firstTitle(decoded(bytes, headerCharset(contentType)));
  if (raw === null) return null;
  const title = decodeEntities(raw).trim();
  return title === "" ? null : title;
}

// What may hide a <title> that is not the page's (an old one in a comment, one in a script's
// string), and the title itself. Each is found by one forward search that never looks back.
const TITLE_OR_HIDER = /<!--|<(script|style|title)\b/gi;

/**
 * The first <title>'s raw text outside comments, scripts and styles, or null (none, or it is not
 * closed in the bytes read). One pass over the text: each search starts where the last one ended,
 * so a hostile page (thousands of unclosed `<!--` or `<script`) costs its length, never its square,
 * and the fetch's time bound holds (docs/link-titles.md: How a title is fetched).
 */
export function firstTitle(text: string): string | null {
  let at = 0;
  for (;;) {
    TITLE_OR_HIDER.lastIndex = at;
    const found = TITLE_OR_HIDER.exec(text);
    if (found === null) return null;
    if (found[0] === "<!--") {
      const end = text.indexOf("-->", found.index + 4);
      if (end === -1) return null; // a comment to the end: nothing after it is the page's
      at = end + 3;
      continue;
    }
    const name = found[1]!.toLowerCase();
    const close = new RegExp(`</${name}\\s*>`, "gi");
    close.lastIndex = found.index;
    const closed = close.exec(text);
    if (closed === null) return null; // unclosed to the end, as a browser reads it: no title after it
    if (name === "title") {
      const opened = text.indexOf(">", found.index);
      return opened === -1 || opened > closed.index ? null : text.slice(opened + 1, closed.index);
    }
    at = closed.index + closed[0].length;
  }
}

/** The bytes as text: the header's charset, else a byte-order mark, else the page's own <meta>, else UTF-8. */
function decoded(bytes: Uint8Array, fromHeader: string | null): string {
  const label = fromHeader ?? byteOrderMark(bytes) ?? metaCharset(bytes) ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    // A label no decoder knows (a typo, an invented name): UTF-8, as a browser would fall back.
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}

/** `<meta charset="x">` or `<meta http-equiv="Content-Type" content="text/html; charset=x">`, in the bytes before the title's end. */
function metaCharset(bytes: Uint8Array): string | null {
  const end = titleEnd(bytes);
  const head = ASCII_VIEW.decode(end === -1 ? bytes.subarray(0, 4096) : bytes.subarray(0, Math.max(end, 1024)));
  for (const tag of metaTags(head)) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(tag);
    if (direct) {
      const label = direct[1]!.toLowerCase();
      // A page that says UTF-16 in ASCII bytes is not UTF-16 (the HTML standard reads it as UTF-8).
      return label.startsWith("utf-16") ? "utf-8" : label;
    }
  }
  return null;
}

const META_OR_COMMENT = /<!--|<meta\b/gi;

/** The <meta> tags outside comments, in order; one forward pass, as firstTitle's. */
function* metaTags(head: string): Generator<string> {
  let at = 0;
  for (;;) {
    META_OR_COMMENT.lastIndex = at;
    const found = META_OR_COMMENT.exec(head);
    if (found === null) return;
    const end = found[0] === "<!--" ? head.indexOf("-->", found.index + 4) : head.indexOf(">", found.index);
    if (end === -1) return;
    if (found[0] !== "<!--") yield head.slice(found.index, end + 1);
    at = end + 1;
  }
}
