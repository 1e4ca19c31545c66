// Links into apps (--allow-schemes; docs/sharing.md: Links into apps) against a real server, on
// either engine: an app's link answered with the open-app page (a click), mailto: with a 302 and no
// click query merged, an os=android rule to an intent:, a split and a fallback into an app, the
// peer APIs' creates, and a server without the flag refusing every one of them.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";

const T = 60_000;
const CHROME_ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";
const INTENT = `intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;S.browser_fallback_url=${encodeURIComponent("https://zxing.example/get")};end`;
let server: RunningServer;
let plain: RunningServer;
let key: string;
let plainKey: string;

beforeAll(async () => {
  [server, plain] = await Promise.all([
    startServer({ args: ["--create-rate-limit", "0", "--allow-schemes", "tg,spotify,mailto,intent,whatsapp,zxing", "--compat", "yourls,kutt,shlink"] }),
    startServer({ args: ["--create-rate-limit", "0"] }),
  ]);
  key = makeKey(server.dbPath, "owner");
  plainKey = makeKey(plain.dbPath, "owner");
}, T);
afterAll(async () => {
  await Promise.all([server?.dispose(), plain?.dispose()]);
}, T);

const create = (body: Record<string, unknown>, on = server, k = key) => api(on.url, k, "POST", "/api/create", body);
async function statsOf(id: string) {
  await drained(server.url);
  return (await stats(server.url, `id=${id}`)).data.stats;
}

describe("an app's link: the open-app page", () => {
  test("GET answers 200 with the app's URL escaped in a big link, no script, no-store, and counts a click; HEAD does not", async () => {
    const made = await create({ url: "tg://msg?text=it's&to=a", custom_url: "app-tg", fallback_url: "https://t.example/a?b=1&c=2" });
    expect(made.status).toBe(201);
    expect((await api(server.url, key, "GET", "/api/links/app-tg")).body.data.originalUrl).toBe("tg://msg?text=it's&to=a");
    const res = await click(server.url, "app-tg?utm_source=x", { "user-agent": UA.firefoxLinux, "accept-language": "de" });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("content-language")).toBe("de");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toStartWith("default-src 'none'");
    expect(csp).not.toContain("script-src");
    const page = await res.text();
    expect(page).not.toContain("<script");
    expect(page).toContain(`<a class="btn btn-primary" href="tg://msg?text=it&#39;s&amp;to=a" rel="noreferrer">In der App öffnen</a>`);
    expect(page).toContain(`href="https://t.example/a?b=1&amp;c=2" rel="noreferrer">Im Browser fortfahren</a>`);
    expect(page).not.toContain("utm_source"); // the click's query goes nowhere
    expect((await click(server.url, "app-tg", {}, "HEAD")).status).toBe(200);
    const s = await statsOf("app-tg");
    expect(s.totalClicks).toBe(1);
  }, T);

  test("without a fallback URL there is no way on in the browser; a spotify: URL is kept as written", async () => {
    expect((await create({ url: "spotify:track:4uLU6hMCjMI75M1A2tKUQC", custom_url: "app-spotify" })).status).toBe(201);
    const page = await (await click(server.url, "app-spotify", { "user-agent": UA.safariIphone })).text();
    expect(page).toContain(`href="spotify:track:4uLU6hMCjMI75M1A2tKUQC"`);
    expect(page).toContain("Open in the app");
    expect(page).not.toContain("Continue in the browser");
  }, T);
});

describe("a password-protected link into an app", () => {
  test("the password form's right password answers the page itself (a 303 to tg: would break the form), counted once", async () => {
    expect((await create({ url: "tg://resolve?domain=secret", custom_url: "app-pw", password: "open sesame" })).status).toBe(201);
    expect((await click(server.url, "app-pw", { "user-agent": UA.firefoxLinux })).status).toBe(401);
    const res = await fetch(`${server.url}/app-pw`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": UA.firefoxLinux }, body: "password=open+sesame" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`href="tg://resolve?domain=secret"`);
    expect((await statsOf("app-pw")).totalClicks).toBe(1);
  }, T);
});

describe("the schemes a 302 serves", () => {
  test("mailto: a 302 to exactly the stored URL, the click's query never merged, counted", async () => {
    expect((await create({ url: "mailto:team@b.example?subject=Hello%20you", custom_url: "app-mail" })).status).toBe(201);
    for (const query of ["", "?utm_source=news&subject=other"]) {
      const res = await click(server.url, `app-mail${query}`, { "user-agent": UA.firefoxLinux });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("mailto:team@b.example?subject=Hello%20you");
    }
    expect((await statsOf("app-mail")).totalClicks).toBe(2);
  }, T);

  test("a rule with os=android to an intent: Chrome on Android gets the intent by 302, others the web page; ruleStats count both", async () => {
    const made = await create({ url: "https://zxing.example/", custom_url: "app-intent", rules: [{ conditions: [{ type: "os", value: "android" }], url: INTENT }] });
    expect(made.status).toBe(201);
    const android = await click(server.url, "app-intent?x=1", { "user-agent": CHROME_ANDROID });
    expect(android.status).toBe(302);
    expect(android.headers.get("location")).toBe(INTENT);
    expect((await click(server.url, "app-intent", { "user-agent": UA.firefoxLinux })).headers.get("location")).toBe("https://zxing.example/");
    const s = await statsOf("app-intent");
    expect(s.totalClicks).toBe(2);
    expect(s.ruleStats).toContainEqual({ name: "rule 1", count: 1 });
  }, T);

  test("an intent whose S.browser_fallback_url is not a fine web page is refused", async () => {
    const bad = INTENT.replace(encodeURIComponent("https://zxing.example/get"), encodeURIComponent("http://127.0.0.1/x"));
    const r = await create({ url: "https://zxing.example/", rules: [{ conditions: [{ type: "os", value: "android" }], url: bad }] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("S.browser_fallback_url");
  }, T);

  test("an intent read as Android reads it (keys and values percent-decoded): a hidden javascript:, web page or local address is refused, never served", async () => {
    for (const url of [
      "intent://x/#Intent;scheme=%6Aavascript;end",
      "intent:javascript:alert(1)#Intent;end",
      "intent://127.0.0.1:9/#Intent;scheme=http;end",
      `intent://x/#Intent;S.browser%5Ffallback%5Furl=${encodeURIComponent("http://127.0.0.1/")};end`,
    ]) {
      const r = await create({ url });
      expect([r.status, r.body.code]).toEqual([400, expect.stringMatching(/^url_(scheme|invalid|local)$/)]);
    }
  }, T);
});

describe("splits and fallbacks into apps", () => {
  test("a split with an app variant: its visitors get the page, counted as clicks of that variant", async () => {
    const made = await create({ url: "https://x.example/", custom_url: "app-split", variants: [{ url: "whatsapp://send?text=hi", weight: 1 }, { url: "tg://resolve?domain=x", weight: 1 }] });
    expect(made.status).toBe(201);
    for (let i = 0; i < 4; i++) {
      const res = await click(server.url, "app-split", { "user-agent": UA.firefoxLinux });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/href="(whatsapp:\/\/send\?text=hi|tg:\/\/resolve\?domain=x)"/);
    }
    expect((await statsOf("app-split")).totalClicks).toBe(4);
  }, T);

  test("a disabled link whose fallback is an app: the page, counted in fallbackStats, not a click", async () => {
    expect((await create({ url: "https://x.example/", custom_url: "app-fb", fallback_url: "tg://resolve?domain=later" })).status).toBe(201);
    expect((await api(server.url, key, "PATCH", "/api/links/app-fb", { disabled: true })).status).toBe(200);
    const res = await click(server.url, "app-fb", { "user-agent": UA.firefoxLinux });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`href="tg://resolve?domain=later"`);
    const s = await statsOf("app-fb");
    expect(s.totalClicks).toBe(0);
    expect(s.fallbackStats).toEqual([{ name: "disabled", count: 1 }]);
  }, T);
});

describe("never-allowed and not-allowed schemes", () => {
  test("a scheme not listed: url_scheme naming the allowed ones; javascript: refused", async () => {
    const r = await create({ url: "slack://open" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "url_scheme", field: "url" });
    expect(r.body.error).toContain("tg:, spotify:, mailto:, intent:, whatsapp:");
    expect((await create({ url: "javascript:alert(1)" })).body.code).toBe("url_scheme");
  }, T);

  test("without --allow-schemes every app URL is refused with url_scheme, in a link, a rule, a variant and a fallback", async () => {
    for (const body of [
      { url: "tg://resolve?domain=x" },
      { url: "mailto:a@b.example" },
      { url: INTENT },
      { url: "https://x.example/", fallback_url: "tg://resolve?domain=x" },
      { url: "https://x.example/", rules: [{ conditions: [{ type: "os", value: "android" }], url: "spotify:track:1" }] },
      { url: "https://x.example/", variants: [{ url: "tg://a", weight: 1 }, { url: "https://y.example/", weight: 1 }] },
    ]) {
      const r = await create(body, plain, plainKey);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain("url_scheme");
    }
  }, T);
});

describe("the peer APIs share the checks", () => {
  test("Shlink: an allowed scheme is created, javascript: is a 400 problem", async () => {
    const post = (longUrl: string) => fetch(`${server.url}/rest/v3/short-urls`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-Api-Key": key }, body: JSON.stringify({ longUrl }) });
    const ok = await post("tg://resolve?domain=shlink");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).longUrl).toBe("tg://resolve?domain=shlink");
    const bad = await post("javascript:alert(1)");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    expect(((await bad.json()) as any).status).toBe(400);
  }, T);

  test("Kutt: an allowed scheme is created, javascript: is a 400 with Kutt's error", async () => {
    const post = (target: string) => fetch(`${server.url}/api/v2/links`, { method: "POST", headers: { "Content-Type": "application/json", "X-API-KEY": key }, body: JSON.stringify({ target }) });
    const ok = await post("mailto:kutt@b.example");
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as any).target).toBe("mailto:kutt@b.example");
    const bad = await post("javascript:alert(1)");
    expect(bad.status).toBe(400);
    expect(typeof ((await bad.json()) as any).error).toBe("string");
  }, T);

  test("YOURLS: an allowed scheme is created, javascript: is a fail", async () => {
    const call = (url: string) => fetch(`${server.url}/yourls-api.php?${new URLSearchParams({ action: "shorturl", url, signature: key, format: "json" })}`);
    const ok = await call("whatsapp://send?text=yourls");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).url.url).toBe("whatsapp://send?text=yourls");
    const bad = await call("javascript:alert(1)");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).status).toBe("fail");
  }, T);
});
