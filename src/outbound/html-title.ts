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
  const text = decoded(bytes, headerCharset(contentType));
  // Comments may hold an old <title>; a title inside a script or style is not the page's.
  const visible = text.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "");
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(visible);
  if (!match) return null;
  const title = decodeEntities(match[1]!).trim();
  return title === "" ? null : title;
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
  const head = ASCII_VIEW.decode(end === -1 ? bytes.subarray(0, 4096) : bytes.subarray(0, Math.max(end, 1024))).replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(tag);
    if (direct) {
      const label = direct[1]!.toLowerCase();
      // A page that says UTF-16 in ASCII bytes is not UTF-16 (the HTML standard reads it as UTF-8).
      return label.startsWith("utf-16") ? "utf-8" : label;
    }
  }
  return null;
}
