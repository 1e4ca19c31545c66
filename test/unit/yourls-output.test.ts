// The YOURLS API's formats (src/http/compat/yourls-output.ts) as YOURLS's yourls_api_output writes
// them (github.com/YOURLS/YOURLS, includes/functions-api.php; its XML through spatie/array-to-xml,
// includes/functions.php yourls_xml_encode; its callback rule, includes/functions-formatting.php
// yourls_validate_jsonp_callback).

import { describe, expect, test } from "bun:test";
import { safeCallback, xmlDocument, yourlsResponse } from "../../src/http/compat/yourls-output.ts";

describe("status", () => {
  test("statusCode first, then errorCode, else 200", async () => {
    expect(yourlsResponse({ statusCode: "404", errorCode: "400" }, { format: "json", callback: null }).status).toBe(404);
    expect(yourlsResponse({ statusCode: "", errorCode: "403" }, { format: "json", callback: null }).status).toBe(403);
    expect(yourlsResponse({ version: "1" }, { format: "json", callback: null }).status).toBe(200);
  });
});

describe("xml", () => {
  test("one line under <root>, nested objects, null and '' as empty elements, markup escaped, characters XML cannot hold dropped", () => {
    const xml = xmlDocument({ message: `a <b> & "c" 'd'\u0001`, url: { keyword: "k", title: null }, code: "", n: 3 });
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?><root><message>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</message><url><keyword>k</keyword><title/></url><code/><n>3</n></root>`);
  });
});

describe("simple", () => {
  test("the simple text alone, for simple and for any format name YOURLS does not know", async () => {
    for (const format of ["simple", "yaml", ""]) {
      const res = yourlsResponse({ message: "m", simple: "https://s.test/x" }, { format, callback: null });
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await res.text()).toBe("https://s.test/x");
    }
  });
});

describe("jsonp", () => {
  test("a callback of letters, digits, _, $ and . only, with no \\uXXXX look-alike", () => {
    expect(["cb", "a.b_c$1", "jQuery123_456"].every(safeCallback)).toBe(true);
    expect(["", "a(b)", "a b", "x\\u2028", "u2028", "a;alert(1)", "a\u2028"].some(safeCallback)).toBe(false);
  });

  test("the answer wrapped in the callback, `<` and line separators escaped, the callback echoed", async () => {
    const res = yourlsResponse({ message: "</script>\u2028" }, { format: "jsonp", callback: "cb" });
    expect(res.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(await res.text()).toBe('cb({"message":"\\u003c/script>\\u2028","callback":"cb"})');
  });

  test("a bad callback: 400 and YOURLS's JSON, not the answer", async () => {
    const res = yourlsResponse({ version: "1" }, { format: "jsonp", callback: "alert(1)" });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('{"errorCode":"400","error":"Invalid callback parameter"}');
  });
});
