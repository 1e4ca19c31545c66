// Property: whatever arrives at POST /api/create — bad multipart, wrong or missing content types,
// huge fields, files instead of fields, invalid UTF-8, NUL bytes — the answer is never a 5xx, is
// always JSON, and is {success:false, error} unless it really created a link; the server keeps going.

import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
});
afterAll(() => server.dispose());

const enc = new TextEncoder();
const cat = (...parts: (string | Uint8Array)[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? enc.encode(p) : p))));

// Bytes that are not UTF-8 on their own: lone continuation, overlong, surrogate, truncated sequences.
const invalidUtf8 = fc.constantFrom(
  Uint8Array.of(0xff), Uint8Array.of(0x80), Uint8Array.of(0xc0, 0xaf), Uint8Array.of(0xed, 0xa0, 0x80), Uint8Array.of(0xe2, 0x82),
);
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("https://example.com/", "https://example.com/\u0000x", "javascript:alert(1)", "\u0000", "%ff", "../../etc/passwd", "a".repeat(20_000), "https://" + "a".repeat(3000) + ".com"),
);
const value = fc.oneof(nasty.map((s) => enc.encode(s)), fc.tuple(nasty, invalidUtf8, nasty).map(([a, b, c]) => cat(a, b, c)), fc.uint8Array({ maxLength: 64 }));
const fieldName = fc.oneof(fc.constantFrom("url", "custom_url", "URL", "url[]", ""), fc.string({ maxLength: 10 }));

/** A multipart body that is well-framed or subtly broken, with text or file parts. */
const multipart = fc
  .record({
    boundary: fc.oneof(fc.constant("b0undary"), fc.stringMatching(/^[A-Za-z0-9'()+_,\-./:=? ]{1,70}$/)),
    parts: fc.array(fc.record({ name: fieldName, value, file: fc.boolean(), type: fc.option(fc.constantFrom("text/plain", "application/octet-stream", "x/\u00ff")) }), { maxLength: 4 }),
    close: fc.constantFrom("--\r\n", "--", "", "\r\n"),
    announce: fc.constantFrom("exact", "none", "other", "quoted"),
    junk: fc.option(value),
  })
  .map(({ boundary, parts, close, announce, junk }) => {
    const body = cat(
      junk ?? "",
      ...parts.flatMap((p) => [
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.file ? '; filename="f.txt"' : ""}\r\n`,
        p.type ? `Content-Type: ${p.type}\r\n` : "",
        "\r\n",
        p.value,
        "\r\n",
      ]),
      `--${boundary}${close}`,
    );
    const header =
      announce === "exact" ? `multipart/form-data; boundary=${boundary}` : announce === "quoted" ? `multipart/form-data; boundary="${boundary}"` : announce === "other" ? "multipart/form-data; boundary=zzz" : "multipart/form-data";
    return { contentType: header, body };
  });

const urlencoded = fc
  .array(fc.tuple(fieldName, value), { maxLength: 4 })
  .map((pairs) => ({ contentType: "application/x-www-form-urlencoded", body: cat(...pairs.flatMap(([k, v], i) => [i ? "&" : "", encodeURIComponent(k), "=", v])) }));

const json = fc
  .oneof(
    fc.jsonValue().map((v) => enc.encode(JSON.stringify(v))),
    fc.record({ url: fc.oneof(fc.jsonValue(), nasty), custom_url: fc.oneof(fc.jsonValue(), nasty) }, { requiredKeys: [] }).map((v) => enc.encode(JSON.stringify(v))),
    fc.tuple(fc.constant('{"url":"'), value, fc.constant('"}')).map(([a, b, c]) => cat(a, b, c)),
    value,
  )
  .map((body) => ({ contentType: "application/json", body }));

const anyType = fc.record({
  contentType: fc.oneof(fc.constantFrom("", "text/plain", "application/xml", "multipart/mixed", "APPLICATION/JSON; charset=latin1", "application/json;;;"), fc.stringMatching(/^[\x20-\x7e]{0,60}$/)),
  body: fc.oneof(value, fc.uint8Array({ maxLength: 20_000 })),
});

const requestBody = fc.oneof(multipart, urlencoded, json, anyType);

async function post(contentType: string, body: Uint8Array) {
  const headers: Record<string, string> = contentType === "" ? {} : { "content-type": contentType };
  const res = await fetch(`${server.url}/api/create`, { method: "POST", headers, body: new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type") ?? "", text };
}

function expectApiAnswer(r: { status: number; type: string; text: string }) {
  expect(r.status).toBeLessThan(500);
  expect(r.type).toContain("application/json");
  const body = JSON.parse(r.text);
  if (r.status === 201) {
    expect(body.success).toBe(true);
  } else {
    expect(body.success).toBe(false);
    expect(typeof body.error).toBe("string");
    expect(body.error.length).toBeGreaterThan(0);
  }
}

test("random and malformed create bodies: never 5xx, always a JSON API answer", async () => {
  await fc.assert(
    fc.asyncProperty(requestBody, async ({ contentType, body }) => {
      expectApiAnswer(await post(contentType, body));
    }),
    { numRuns: 400 },
  );
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  expect(server.output()).not.toContain("request failed");
}, 30_000);

test("files instead of fields, NUL bytes and invalid UTF-8 in a well-formed multipart body are 400 bad_request or a URL rule", async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("url", "custom_url"), fc.boolean(), invalidUtf8, async (name, asFile, bad) => {
      const parts = [`--b\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://example.com/\r\n`];
      const cd = `Content-Disposition: form-data; name="${name}"${asFile ? '; filename="x.txt"' : ""}`;
      const body = cat(...(name === "url" ? [] : parts), `--b\r\n${cd}\r\n\r\nabc`, bad, "\u0000def\r\n--b--\r\n");
      const r = await post("multipart/form-data; boundary=b", body);
      expectApiAnswer(r);
      expect(r.status).toBe(400);
    }),
    { numRuns: 40 },
  );
});
