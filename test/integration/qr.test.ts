// GET /<alias>/qr against the real service (docs/sharing.md: QR codes by URL), on either engine:
// every answer decoded back with jsqr (PNG through pngjs, our SVG rasterised by the test helper)
// to the link's short URL; sizes in whole pixels per module; levels, margins, colours; the
// refusals in the API's JSON; ETag and 304; HEAD; and that drawing a QR code is not a click.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { decodePng, decodeSvg, pixelAt } from "../support/qr-decode.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let shortUrl: string;

const qr = (query = "", init: RequestInit = {}) => fetch(`${server.url}/poster/qr${query}`, init);
const png = async (query = "") => {
  const res = await qr(query);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  return decodePng(new Uint8Array(await res.arrayBuffer()));
};

beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/event", custom_url: "poster" })).status).toBe(201);
  shortUrl = `${server.url}/poster`;
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

describe("the picture", () => {
  test("by default a 600-pixel-at-most PNG of the short URL, 2 modules of margin, level M", async () => {
    const d = await png();
    expect(d.text).toBe(shortUrl);
    expect(d.width).toBe(d.height);
    expect(d.width).toBeLessThanOrEqual(600);
    expect(d.width).toBeGreaterThan(600 - 600 / 20);
    // A corner pixel is margin (background), the finder pattern starts 2 modules in.
    expect(pixelAt(d, 0, 0)).toBe("ffffff");
  });

  test.each([64, 100, 333, 600, 1000, 2048])("size=%p: a whole number of pixels per module, at most the size, and it decodes", async (size) => {
    const d = await png(`?size=${size}`);
    expect(d.width).toBeLessThanOrEqual(size);
    // The picture is (modules + 2 margins) × scale: the finder's top-left dark module starts at margin × scale.
    const scale = firstDark(d) / 2;
    expect(Number.isInteger(scale)).toBe(true);
    expect(d.width % scale).toBe(0);
    expect(size - d.width).toBeLessThan(d.width / scale);
    if (scale >= 2) expect(d.text).toBe(shortUrl);
  });

  test.each(["L", "M", "Q", "H"])("level=%p decodes, each level its own symbol", async (level) => {
    const res = await qr(`?level=${level}&format=svg`);
    const svg = await res.text();
    expect(decodeSvg(svg).text).toBe(shortUrl);
    const others = await Promise.all(["L", "M", "Q", "H"].filter((l) => l !== level).map(async (l) => (await qr(`?level=${l}&format=svg`)).text()));
    for (const other of others) expect(other).not.toBe(svg);
  });

  test("format=svg: one path of modules in a viewBox, the size in pixels, decodes", async () => {
    const res = await qr("?format=svg&size=300");
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const svg = await res.text();
    expect(svg.match(/<path /g)).toHaveLength(1);
    const side = Number(/viewBox="0 0 (\d+) /.exec(svg)![1]);
    const width = Number(/ width="(\d+)"/.exec(svg)![1]);
    expect(width % side).toBe(0);
    expect(width).toBeLessThanOrEqual(300);
    expect(decodeSvg(svg).text).toBe(shortUrl);
  });

  test("margin=0 starts with the finder pattern, margin=16 with 16 modules of background", async () => {
    const none = await png("?margin=0&size=400");
    expect(pixelAt(none, 0, 0)).toBe("000000");
    const wide = await png("?margin=16&size=400");
    const scale = firstDark(wide) / 16;
    expect(Number.isInteger(scale)).toBe(true);
    expect(wide.text).toBe(shortUrl);
  });

  test("fg and bg, as rrggbb, rgb or #-prefixed: drawn in those colours, still decodes", async () => {
    const d = await png("?fg=1a237e&bg=fffde7");
    expect(pixelAt(d, 0, 0)).toBe("fffde7");
    expect(colours(d)).toEqual(new Set(["1a237e", "fffde7"]));
    expect(d.text).toBe(shortUrl);
    const short = await png(`?fg=${encodeURIComponent("#036")}&bg=FFF`);
    expect(colours(short)).toEqual(new Set(["003366", "ffffff"]));
  });
});

describe("refusals: 400 qr_invalid naming the parameter", () => {
  test.each([
    ["?size=63", "size"], ["?size=2049", "size"], ["?size=abc", "size"], ["?size=1e3", "size"],
    ["?margin=17", "margin"], ["?margin=-1", "margin"], ["?level=X", "level"], ["?format=gif", "format"],
    ["?fg=12345", "fg"], ["?bg=red", "bg"], ["?logo=1", "logo"], ["?logo=yes", "logo"], ["?size=100&size=200", "size"],
    // 4.48:1, just under WCAG's 4.5
    ["?fg=777777", "fg"],
    // light on dark, however strong
    ["?fg=ffffff&bg=000000", "fg"],
  ])("%p", async (query, field) => {
    const res = await qr(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: "qr_invalid", field });
  });

  test("4.5:1 and more is taken: 767676 on white", async () => {
    expect((await png("?fg=767676")).text).toBe(shortUrl);
  });

  test("an unknown parameter is refused, never ignored", async () => {
    const res = await qr("?sise=300");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, code: "qr_invalid" });
    expect(body.error).toContain("sise");
  });

  test("a size too small for the code: 400 saying how small it may be", async () => {
    const res = await qr("?size=64&margin=16&level=H");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "qr_invalid", field: "size" });
  });
});

describe("caching, HEAD, not a click", () => {
  test("an ETag; If-None-Match answers 304 without a body; other options another tag", async () => {
    const first = await qr("?size=300");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"qr-[0-9a-f]{32}"$/);
    // No --base-url: the code's URL comes from the request's Host, so no shared cache may keep it.
    expect(first.headers.get("cache-control")).toBe("private, max-age=86400");
    expect(first.headers.get("link-status")).toBe("active");
    const again = await qr("?size=300", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await qr("?size=300", { headers: { "If-None-Match": `"other", W/${etag}` } })).status).toBe(304);
    expect((await qr("?size=301", { headers: { "If-None-Match": etag } })).status).toBe(200);
    expect((await qr("?size=300&level=H")).headers.get("etag")).not.toBe(etag);
  });

  test("HEAD: the GET's status and headers, no body", async () => {
    const get = await qr("?format=svg");
    const head = await qr("?format=svg", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(await head.text()).toBe("");
  });

  test("no click is recorded for a QR code", async () => {
    for (let i = 0; i < 3; i++) await (await qr()).arrayBuffer();
    await drained(server.url);
    const key = makeKey(server.dbPath, "reader");
    expect((await api(server.url, key, "GET", "/api/links/poster")).body.data.totalClicks).toBe(0);
  });

  test("an unknown or impossible alias: 404; /api/qr is no API endpoint", async () => {
    const unknown = await fetch(`${server.url}/nope/qr`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: "not_found" });
    expect((await fetch(`${server.url}/api/qr`)).status).toBe(404);
    expect((await fetch(`${server.url}/stats/qr`)).status).not.toBe(200);
  });

  test("/rest/qr under --compat shlink (on by default): Shlink's not-found problem, not the HTML 404 page", async () => {
    const res = await fetch(`${server.url}/rest/qr`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 404, type: expect.stringContaining("not-found") });
  });
});

/** Every colour in the picture. */
function colours(d: ReturnType<typeof decodePng>): Set<string> {
  const seen = new Set<string>();
  for (let y = 0; y < d.height; y += 1) for (let x = 0; x < d.width; x += 1) seen.add(pixelAt(d, x, y));
  return seen;
}

/** The x of the first dark pixel on the finder's middle row: margin × scale (the finder's dark edge). */
function firstDark(d: ReturnType<typeof decodePng>): number {
  for (let y = 0; y < d.height; y++) for (let x = 0; x < d.width; x++) if (pixelAt(d, x, y) === "000000") return x;
  throw new Error("no dark pixel");
}

// Last: it spends this address's drawings for the minute.
describe("the drawing limit", () => {
  test("after 120 drawings a minute from one address: 429 with Retry-After; a 304 still answers", async () => {
    const first = await qr("?format=svg&size=64&margin=0");
    const etag = first.headers.get("etag")!;
    let refused: Response | null = null;
    for (let i = 0; i < 130 && refused === null; i++) {
      const res = await qr(`?format=svg&size=${64 + i}`);
      if (res.status === 429) refused = res;
      else await res.arrayBuffer();
    }
    expect(refused).not.toBeNull();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({ success: false, code: "rate_limited" });
    expect((await qr("?format=svg&size=64&margin=0", { headers: { "If-None-Match": etag } })).status).toBe(304);
    // A HEAD draws nothing, so it spends nothing: still answered, as the GET would be.
    const head = await qr("?format=svg&size=900", { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), head.headers.get("cache-control")]).toEqual([200, "image/svg+xml; charset=utf-8", "private, max-age=86400"]);
    expect(head.headers.get("etag")).toMatch(/^"qr-/);
    expect((await qr("?size=64&margin=16&level=H", { method: "HEAD" })).status).toBe(400); // too small, as its GET
  });
});

describe("--base-url", () => {
  test("the code's URL is fixed: a shared cache may keep it, whatever the Host", async () => {
    const based = await startServer({ args: ["--base-url", "https://s.example"] });
    try {
      expect((await createLink(based.url, { url: "https://example.com/event", custom_url: "poster" })).status).toBe(201);
      const res = await fetch(`${based.url}/poster/qr`, { headers: { Host: "other.example" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(decodePng(new Uint8Array(await res.arrayBuffer())).text).toBe("https://s.example/poster");
    } finally {
      await based.dispose();
    }
  });
});
