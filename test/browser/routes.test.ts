// The UI's routes over plain HTTP: hashed assets with immutable caching and gzip, favicon,
// robots.txt, `/<lang>` without slash, and security headers on every HTML answer (404 included).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LANGUAGES } from "../../src/lang.ts";
import { startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.dispose();
});

/** Asset URLs a page links to (stylesheet, module script, icon). */
async function assetsOf(path: string): Promise<string[]> {
  const html = await (await fetch(`${server.url}${path}`)).text();
  return [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe("web routes", () => {
  test("every asset a page links to is served with its type and immutable caching", async () => {
    const assets = new Set([...(await assetsOf("/en/")), ...(await assetsOf("/en/stats/nope"))]);
    expect(assets.size).toBeGreaterThanOrEqual(3);
    for (const path of assets) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const type = res.headers.get("content-type") ?? "";
      if (path.endsWith(".js")) expect(type).toStartWith("text/javascript");
      if (path.endsWith(".css")) expect(type).toStartWith("text/css");
      if (path.endsWith(".svg")) expect(type).toStartWith("image/svg+xml");
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  test("scripts are sent gzipped to clients that accept it", async () => {
    const script = (await assetsOf("/en/")).find((p) => p.endsWith(".js"))!;
    const res = await fetch(`${server.url}${script}`, { headers: { "Accept-Encoding": "gzip" }, decompress: false });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
  });

  test("favicon.ico and robots.txt", async () => {
    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.headers.get("content-type")).toStartWith("text/plain");
    expect(await robots.text()).toContain("Disallow: /en/stats/");
  });

  test("each language answers at /<lang> and /<lang>/ with security headers", async () => {
    for (const lang of LANGUAGES) {
      for (const path of [`/${lang}`, `/${lang}/`]) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-language")).toBe(lang);
        expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
        expect(await res.text()).toContain(`<html lang="${lang}">`);
      }
    }
  });

  test("an unknown link's stats page is a 404 HTML page with the same headers", async () => {
    const res = await fetch(`${server.url}/it/stats/missing-link`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await res.text()).toContain('<html lang="it">');
  });
});
