// Reading a page's <title> (src/outbound/html-title.ts, html-entities.ts; docs/link-titles.md: How a
// title is fetched): the charset from the header, a byte-order mark, <meta charset> or http-equiv,
// else UTF-8; entities; what is not the page's title (comments, scripts); the end tag the reader
// stops at. Bytes only: nothing is fetched here.

import { describe, expect, test } from "bun:test";
import { headerCharset, isHtml, titleEnd, titleOfHtml } from "../../src/outbound/html-title.ts";
import { decodeEntities } from "../../src/outbound/html-entities.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Text whose characters are all below U+0100, one byte each (ISO-8859-1 as written). */
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...latin1(p)] : p)));

describe("the charset", () => {
  test("from the Content-Type, quoted or not, any case", () => {
    expect(headerCharset("text/html; charset=ISO-8859-1")).toBe("iso-8859-1");
    expect(headerCharset('text/html;charset="windows-1252"')).toBe("windows-1252");
    expect(headerCharset("text/html")).toBeNull();
    expect(headerCharset(null)).toBeNull();
  });

  test("the header's wins over the page's own <meta>", () => {
    const page = bytes('<meta charset="utf-8"><title>caf', [0xe9], "</title>");
    expect(titleOfHtml(page, "text/html; charset=iso-8859-1")).toBe("café");
  });

  test("<meta charset> when the header names none", () => {
    expect(titleOfHtml(bytes('<head><meta charset="windows-1252"><title>', [0x93], "Quoted", [0x94], " ", [0x80], "5</title>"), "text/html")).toBe("“Quoted” €5");
  });

  test("<meta http-equiv=Content-Type content=...; charset=...>", () => {
    const page = bytes('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2"><title>', [0xa3], "\u00f3d", [0xbc], "</title>");
    expect(titleOfHtml(page, "text/html")).toBe("Łódź");
  });

  test("a byte-order mark before the <meta>; UTF-8 without either", () => {
    const le = new Uint8Array([0xff, 0xfe, ...[..."<title>Ωmega</title>"].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
    expect(titleOfHtml(le, "text/html")).toBe("Ωmega");
    expect(titleOfHtml(utf8("<title>Grüße aus 東京</title>"), "text/html")).toBe("Grüße aus 東京");
  });

  test("a label no decoder knows falls back to UTF-8; a <meta> claiming UTF-16 in ASCII bytes is read as UTF-8", () => {
    expect(titleOfHtml(utf8("<title>naïve</title>"), "text/html; charset=no-such-charset")).toBe("naïve");
    expect(titleOfHtml(utf8('<meta charset="utf-16"><title>naïve</title>'), "text/html")).toBe("naïve");
  });
});

describe("the <title>", () => {
  test("the first one outside comments, scripts and styles; attributes allowed", () => {
    const page = '<!-- <title>old</title> --><script>document.title = "<title>no</title>"</script><style>/*<title>x</title>*/</style><TITLE lang="en">The page</TITLE><svg><title>icon</title></svg>';
    expect(titleOfHtml(utf8(page), "text/html")).toBe("The page");
  });

  test("none, empty, or not closed within what was read: null", () => {
    expect(titleOfHtml(utf8("<html><head></head><body>hello</body></html>"), "text/html")).toBeNull();
    expect(titleOfHtml(utf8("<title>   </title>"), "text/html")).toBeNull();
    expect(titleOfHtml(utf8("<title>cut off by the size bou"), "text/html")).toBeNull();
  });

  test("a hostile page (thousands of unclosed comments, scripts, styles, titles, metas) is read in one pass", () => {
    // Each of these made the regular expressions before rescan to the end once per opener: 2 MB of
    // them took minutes (256 KiB already 15 s, the main thread blocked). One pass takes milliseconds,
    // so this test ends long before its limit; the old reading would not.
    const twoMegabytes = (unit: string) => unit.repeat(Math.ceil(2_000_000 / unit.length));
    for (const unit of ["<!--", "<script>", "<style x>", "<title>", "<meta a"]) {
      expect({ unit, title: titleOfHtml(utf8("<html><head>" + twoMegabytes(unit)), "text/html") }).toEqual({ unit, title: null });
    }
    expect(titleOfHtml(utf8("<!-- <title>old</title> -->" + "<scrip".repeat(300_000) + "<title>Real</title>"), "text/html")).toBe("Real");
  }, 60_000);

  test("its end tag, where the reader stops: found across a chunk's edge, any case", () => {
    const page = latin1("<head><title>x</TITLE >rest");
    expect(titleEnd(page)).toBe("<head><title>x</TITLE >".length);
    expect(titleEnd(page, 17)).toBe("<head><title>x</TITLE >".length);
    expect(titleEnd(latin1("<title>x</tit"))).toBe(-1);
  });

  test("HTML and XHTML are pages; anything else is not", () => {
    expect(["text/html", "TEXT/HTML; charset=utf-8", "application/xhtml+xml"].map(isHtml)).toEqual([true, true, true]);
    expect(["application/json", "text/plain", "image/svg+xml", "", null].map(isHtml)).toEqual([false, false, false, false, false]);
  });
});

describe("entities", () => {
  test("named: the markup's, Latin-1's, typographic ones", () => {
    expect(decodeEntities("Tom &amp; Jerry &lt;3 &quot;hi&quot; &apos;x&apos;")).toBe(`Tom & Jerry <3 "hi" 'x'`);
    expect(decodeEntities("&eacute;t&eacute; &copy; 2026 &ndash; &hellip; &ldquo;q&rdquo; &euro;&nbsp;5 &trade;")).toBe("été © 2026 – … “q” €\u00a05 ™");
  });

  test("numeric, decimal and hexadecimal; C1 numbers as windows-1252 reads them; none, surrogates and beyond Unicode are U+FFFD", () => {
    expect(decodeEntities("&#8211; &#x1F600; &#X41; &#150; &#0; &#xD800; &#x110000;")).toBe("– 😀 A – \uFFFD \uFFFD \uFFFD");
  });

  test("without a semicolon only the legacy names; an unknown name stays as written", () => {
    expect(decodeEntities("AT&amp T &copy 2026")).toBe("AT& T © 2026");
    expect(decodeEntities("a &hellip b &unknown; c &")).toBe("a &hellip b &unknown; c &");
  });

  test("in a title", () => {
    expect(titleOfHtml(utf8("<title>Caf&eacute; &amp; Bar &#8212; Men&#xFC;</title>"), "text/html")).toBe("Café & Bar — Menü");
  });
});
