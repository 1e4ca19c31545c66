// The 404 page of an unknown short link (and of any other unknown page), on a real server on either
// engine: styled and translated like the other visitor pages, in the visitor's language by
// Accept-Language, with the same stylesheet and CSP, and a way on that fits how the service is run
// (docs/web-ui.md: Not-found page).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";
import { esc } from "../../web/server/html.ts";
import { ENTRIES } from "../../src/http/web-assets.generated.ts";
import { startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(() => server.dispose());

const get = (base: string, path: string, lang: string, method = "GET") =>
  fetch(`${base}${path}`, { method, redirect: "manual", headers: { "Accept-Language": `${lang};q=1, en;q=0.1` } });

/** The main card's content: the layout's header and footer left out. */
const main = (page: string) => page.slice(page.indexOf('<main id="main"'), page.indexOf("</main>"));

describe("an unknown short link", () => {
  for (const lang of LANGUAGES) {
    test(`${lang}: 404, in ${MESSAGES[lang].language_name}, styled, with the way to the form`, async () => {
      const res = await get(server.url, "/no-such-link", lang);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-language")).toBe(lang);
      expect(res.headers.get("vary")).toContain("Accept-Language");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const page = await res.text();
      const m = MESSAGES[lang];
      expect(page).toContain(`<html lang="${lang}">`);
      expect(page).toContain(`<title>${esc(m.notfound_title)} · ${esc(m.app_name)}</title>`);
      expect(main(page)).toContain(`<h1>${esc(m.notfound_title)}</h1>`);
      expect(main(page)).toContain(`<p>${esc(m.notfound_text)}</p>`);
      expect(main(page)).toContain(`<a class="btn btn-primary" href="/${lang}/">${esc(m.back_home)}</a>`);
      expect(page).toContain(`<link rel="stylesheet" href="${ENTRIES.css}">`);
    });
  }

  test("the same CSP and defences as the other visitor pages (the 410 page, the home page)", async () => {
    const notFound = await get(server.url, "/no-such-link", "de");
    const home = await get(server.url, "/de/", "de");
    for (const header of ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options", "content-type"]) {
      expect({ header, value: notFound.headers.get(header) }).toEqual({ header, value: home.headers.get(header) });
    }
  });

  test("the stylesheet and icon it links are served", async () => {
    const page = await (await get(server.url, "/no-such-link", "ja")).text();
    const links = [...page.matchAll(/<link rel="(?:stylesheet|icon)" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(links.sort()).toEqual([ENTRIES.css, ENTRIES.icon].sort());
    for (const href of links) expect({ href, status: (await fetch(`${server.url}${href}`)).status }).toEqual({ href, status: 200 });
  });

  test("HEAD and a path too short to be an id answer the same page; nothing of the path is shown", async () => {
    const head = await get(server.url, "/no-such-link", "fr", "HEAD");
    expect(head.status).toBe(404);
    expect(head.headers.get("content-language")).toBe("fr");
    const short = await get(server.url, "/x", "fr");
    expect(short.status).toBe(404);
    const page = await short.text();
    expect(page).toContain(esc(MESSAGES.fr.notfound_title));
    expect(main(await (await get(server.url, "/no-such-link", "fr")).text())).not.toContain("no-such-link");
  });

  test("without Accept-Language: English", async () => {
    const res = await fetch(`${server.url}/no-such-link`, { redirect: "manual" });
    expect(res.headers.get("content-language")).toBe("en");
    expect(await res.text()).toContain(`<h1>${esc(MESSAGES.en.notfound_title)}</h1>`);
  });
});

describe("any other unknown page", () => {
  for (const lang of LANGUAGES) {
    test(`${lang}: "page not found" in the visitor's language`, async () => {
      const res = await get(server.url, "/no/such/page", lang);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-language")).toBe(lang);
      const page = main(await res.text());
      expect(page).toContain(`<h1>${esc(MESSAGES[lang].page_notfound_title)}</h1>`);
      expect(page).toContain(`<p>${esc(MESSAGES[lang].page_notfound_text)}</p>`);
    });
  }
});

describe("the way on follows how the service is run", () => {
  let keyOnly: RunningServer;
  let rooted: RunningServer;
  let redirected: RunningServer;
  beforeAll(async () => {
    [keyOnly, rooted, redirected] = await Promise.all([
      startServer({ args: ["--create-access", "key"] }),
      startServer({ args: ["--create-access", "key", "--root-redirect", "https://home.example/welcome"] }),
      startServer({ args: ["--not-found-redirect", "https://home.example/404"] }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([keyOnly.dispose(), rooted.dispose(), redirected.dispose()]);
  });

  test("--create-access key: no way to a form a visitor cannot use; only the advice to check the address", async () => {
    for (const lang of LANGUAGES) {
      const res = await get(keyOnly.url, "/no-such-link", lang);
      expect(res.status).toBe(404);
      const page = main(await res.text());
      expect(page).toContain(`<p>${esc(MESSAGES[lang].notfound_check_text)}</p>`);
      expect(page).not.toContain(esc(MESSAGES[lang].back_home));
      expect(page).not.toContain("notfound-actions");
    }
  });

  test("--root-redirect: the way on is the home page, where the owner sends visitors", async () => {
    for (const path of ["/no-such-link", "/no/such/page"]) {
      const res = await get(rooted.url, path, "it");
      expect(res.status).toBe(404);
      const page = main(await res.text());
      expect(page).toContain(`<a class="btn btn-primary" href="/">${esc(MESSAGES.it.notfound_home)}</a>`);
      expect(page).not.toContain(esc(MESSAGES.it.back_home));
    }
    expect(main(await (await get(rooted.url, "/no-such-link", "it")).text())).toContain(`<p>${esc(MESSAGES.it.notfound_check_text)}</p>`);
    const root = await fetch(`${rooted.url}/`, { redirect: "manual" });
    expect(root.headers.get("location")).toBe("https://home.example/welcome");
  });

  test("--not-found-redirect: an unknown link still redirects there; other unknown pages are the 404 page", async () => {
    const link = await get(redirected.url, "/no-such-link", "pl");
    expect(link.status).toBe(302);
    expect(link.headers.get("location")).toBe("https://home.example/404");
    const page = await get(redirected.url, "/no/such/page", "pl");
    expect(page.status).toBe(404);
    expect(main(await page.text())).toContain(`<h1>${esc(MESSAGES.pl.page_notfound_title)}</h1>`);
  });
});
