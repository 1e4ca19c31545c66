// Browser-side defences on every HTML answer: a CSP that allows no inline script (and the markup
// needs none), frame-ancestors 'none', nosniff and a Referrer-Policy — on the home page, a stats
// page, and every flavour of "not found". Hostile text in the URL is never reflected as markup.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { rawGet } from "../support/raw-http.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/h", custom_url: "hdr-link" })).status).toBe(201);
});
afterAll(() => server.dispose());

const PAGES: [string, number][] = [
  ["/", 200],
  ["/en/", 200],
  ["/de", 200],
  ["/en/stats/hdr-link", 200],
  ["/en/stats/unknown-link", 404], // stats page of an unknown id
  ["/stats/unknown-link", 404], // redirects to the language's stats page, which is a 404
  ["/unknown-link", 404], // the short-link 404 page
  ["/x", 404], // too short to be an id
];

function expectLockedDown(path: string, res: Response, body: string) {
  expect(res.headers.get("content-type")).toContain("text/html");
  const csp = res.headers.get("content-security-policy") ?? "";
  const directives = new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
  expect({ path, frameAncestors: directives.get("frame-ancestors") }).toEqual({ path, frameAncestors: ["'none'"] });
  // Scripts: script-src, or default-src when it is absent; either way no inline and no eval.
  const scripts = directives.get("script-src") ?? directives.get("default-src") ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const banned of ["'unsafe-inline'", "'unsafe-eval'", "*", "data:", "http:", "https:"]) expect(scripts).not.toContain(banned);
  expect(csp).not.toContain("'unsafe-inline'");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
  // The markup honours that policy: every script is external, no inline handlers or styles.
  // A `type="application/json"` data block is never executed (CSP does not even apply); it must
  // parse as JSON, which also proves nothing broke out of it with a stray </script>.
  for (const m of body.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)) {
    const [tag, content] = [m[1]!, m[2]!];
    if (/\stype="application\/json"/i.test(tag)) expect(() => JSON.parse(content)).not.toThrow();
    else expect({ tag, content }).toEqual({ tag: expect.stringMatching(/\ssrc=/i), content: "" });
  }
  expect(body).not.toMatch(/\son[a-z]+\s*=/i);
  expect(body).not.toMatch(/<style\b|\sstyle\s*=/i);
  expect(body).not.toMatch(/javascript:/i);
}

test.each(PAGES)("%s (%d): CSP without inline script, frame-ancestors 'none', nosniff, Referrer-Policy", async (path, status) => {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status).toBe(status);
  expectLockedDown(path, res, await res.text());
});

test("hostile text in the path is never reflected as markup", async () => {
  const payload = "<script>alert(1)</script>";
  const encoded = encodeURIComponent(payload);
  for (const path of [`/${encoded}`, `/en/stats/${encoded}`, `/stats/${encoded}`, `/en/stats/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E`]) {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expectLockedDown(path, res, body);
    expect(body).not.toContain("<script>alert");
    expect(body).not.toContain("<img src=x");
  }
  // And raw, unencoded bytes in the request line (what fetch would not send).
  const raw = await rawGet(server.port, "/en/stats/\"><svg/onload=alert(1)>");
  expect(raw.status!).toBeLessThan(500);
  expect(raw.body).not.toContain("<svg/onload");
});

test("a hostile Accept-Language cannot inject into Content-Language or the page", async () => {
  const res = await fetch(`${server.url}/`, { headers: { "accept-language": `"><script>alert(1)</script>, en;q=0.1` } });
  expect(res.headers.get("content-language")).toMatch(/^[a-z]{2}(-[A-Za-z]+)?$/);
  expect(await res.text()).not.toContain("<script>alert");
});
