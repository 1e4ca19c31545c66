// Links into apps (--allow-schemes; docs/sharing.md: Links into apps): which app URLs a destination
// may be, what is stored, the never-allowed schemes, an intent's hidden web fallback, the messages,
// the blocklist on URLs without a host, and how a click's destination is compiled for them.

import { describe, expect, test } from "bun:test";
import { checkUrl, intentUrls, type UrlContext } from "../../src/links/url-rules.ts";
import { checkDestination, checkWebDestination, type DestinationRules } from "../../src/links/create.ts";
import { compileDestination, withClickQuery } from "../../src/links/destination.ts";
import { parseBlocklist } from "../../src/links/blocklist.ts";
import { checkWebhookUrl, type WebhookUrlRules } from "../../src/events/webhook-url.ts";
import { importDestinations } from "../../src/imports/destinations.ts";

// zxing: the scheme the intents below open, which must be allowed itself
const APPS = new Set(["tg", "spotify", "mailto", "tel", "sms", "intent", "market", "itms-apps", "whatsapp", "zxing"]);
const CONTEXT: UrlContext = { ownHosts: ["s.example"], allowLocal: false, allowSchemes: APPS };
const rules = (blocked: string, allowSchemes: ReadonlySet<string> | undefined = APPS): DestinationRules => {
  const list = parseBlocklist(blocked);
  return { ownHosts: ["s.example"], allowLocal: false, allowSchemes, isBlocked: (url) => list.matches(url) };
};

describe("app URLs under --allow-schemes", () => {
  test.each([
    ["tg://resolve?domain=example", "tg://resolve?domain=example"],
    ["mailto:a@b.example?subject=Hi%20there", "mailto:a@b.example?subject=Hi%20there"],
    ["spotify:track:4uLU6hMCjMI75M1A2tKUQC", "spotify:track:4uLU6hMCjMI75M1A2tKUQC"],
    ["TEL:+15550100", "tel:+15550100"],
    ["  whatsapp://send?text=hello  ", "whatsapp://send?text=hello"],
    ["market://details?id=org.example.app", "market://details?id=org.example.app"],
    ["itms-apps://apps.apple.com/app/id123", "itms-apps://apps.apple.com/app/id123"],
    // the service's own host and loopback mean nothing in an app's URL: not refused
    ["tg://localhost/x", "tg://localhost/x"],
    ["mailto:é@b.example", "mailto:%C3%A9@b.example"],
  ])("%s is accepted and stored as %s", (raw, stored) => {
    expect(checkUrl(raw, CONTEXT)).toEqual({ ok: true, url: stored });
  });

  test.each(["tg://resolve?domain=x", "mailto:a@b.example", "spotify:track:1"])("%s without --allow-schemes: url_scheme", (raw) => {
    expect(checkUrl(raw, { ownHosts: [], allowLocal: false })).toEqual({ ok: false, problem: "url_scheme" });
    expect(checkUrl(raw, { ownHosts: [], allowLocal: false, allowSchemes: new Set() })).toEqual({ ok: false, problem: "url_scheme" });
  });

  test("a scheme not in the set is refused, a listed one accepted", () => {
    expect(checkUrl("slack://open", CONTEXT)).toEqual({ ok: false, problem: "url_scheme" });
    expect(checkUrl("slack://open", { ...CONTEXT, allowSchemes: new Set(["slack"]) })).toEqual({ ok: true, url: "slack://open" });
  });

  test.each(["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "vbscript:x", "blob:https://a.example/1", "about:blank", "view-source:https://a.example/", "ws://a.example/", "chrome://settings"])(
    "never allowed, even when somehow in the set: %s",
    (raw) => {
      const every = new Set([...APPS, "javascript", "data", "file", "vbscript", "blob", "about", "view-source", "ws", "chrome"]);
      expect(checkUrl(raw, { ...CONTEXT, allowSchemes: every })).toEqual({ ok: false, problem: "url_scheme" });
    },
  );

  test.each(([
    ["tg://resolve?domain=a b", "url_invalid"],
    ["tg://resolve?domain=a\u200bb", "url_invalid"], // zero-width space
    ["tg://resolve?domain=%E2%80%AEab", "url_invalid"], // a right-to-left override, percent-encoded
    ["mailto:a@b.example\u202e", "url_invalid"],
    ["spotify:track:1\u0000", "url_invalid"],
    ["tg://user:pw@resolve", "url_credentials"],
    ["resolve?domain=x", "url_scheme"],
    ["1tg://resolve", "url_scheme"],
    // Named by their JSON: a NUL in a test's name makes its log a binary file to grep (.ci/run counts results with grep).
  ] as [string, string][]).map(([raw, problem]) => [JSON.stringify(raw), problem, raw] as const))("%s: %s", (_name, problem, raw) => {
    expect(checkUrl(raw, CONTEXT)).toEqual({ ok: false, problem: problem as never });
  });

  test("at most 2048 characters, as an http(s) URL", () => {
    expect(checkUrl(`tg://resolve?domain=${"a".repeat(2048)}`, CONTEXT)).toEqual({ ok: false, problem: "url_too_long" });
    expect(checkUrl(`tg://resolve?domain=${"a".repeat(2000)}`, CONTEXT).ok).toBe(true);
  });

  test("http(s) URLs are checked as before: self and local still refused", () => {
    expect(checkUrl("https://s.example/x", CONTEXT)).toEqual({ ok: false, problem: "url_self" });
    expect(checkUrl("http://127.0.0.1/", CONTEXT)).toEqual({ ok: false, problem: "url_local" });
    expect(checkUrl("http:/a.example/", CONTEXT)).toEqual({ ok: false, problem: "url_scheme" });
  });
});

describe("intent: URLs and their S.browser_fallback_url", () => {
  const intent = (fallback: string) => `intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;S.browser_fallback_url=${encodeURIComponent(fallback)};end`;

  test("a web fallback that passes the destination checks is accepted", () => {
    const url = intent("https://play.example/app?id=1");
    expect(checkUrl(url, CONTEXT)).toEqual({ ok: true, url });
    expect(intentUrls(url)).toEqual(["https://play.example/app?id=1"]);
    expect(checkUrl("intent://scan/#Intent;scheme=zxing;end", CONTEXT).ok).toBe(true);
  });

  test.each([
    ["http://127.0.0.1/phish", "url_local"],
    ["https://s.example/loop", "url_self"],
    ["javascript:alert(1)", "url_scheme"],
    ["tg://resolve", "url_scheme"], // only a web page: --allow-schemes is not for the fallback
  ])("a fallback %s is refused (%s), marked as the intent's", (fallback, problem) => {
    expect(checkUrl(intent(fallback), CONTEXT)).toEqual({ ok: false, problem: problem as never, inIntent: "fallback" });
  });

  test("invisible characters in the fallback: the intent's own URL is refused (its %XX decoded)", () => {
    expect(checkUrl(intent("https://a.example/\u200b"), CONTEXT)).toEqual({ ok: false, problem: "url_invalid" });
  });

  test("a fallback that does not decode is refused; a never-allowed scheme= too", () => {
    expect(checkUrl("intent://x/#Intent;S.browser_fallback_url=%E0%A4%A;end", CONTEXT)).toEqual({ ok: false, problem: "url_invalid" });
    expect(checkUrl("intent://x/#Intent;scheme=javascript;end", CONTEXT)).toEqual({ ok: false, problem: "url_scheme", inIntent: "data" });
  });

  test("checkDestination: a blocked fallback is url_blocked, with a message naming it", () => {
    const checked = checkDestination(intent("https://evil.example/x"), rules("evil.example\n"));
    expect(checked).toMatchObject({ ok: false, code: "url_blocked" });
    expect((checked as { error: string }).error).toContain("S.browser_fallback_url");
    expect(checkDestination(intent("https://fine.example/x"), rules("evil.example\n")).ok).toBe(true);
  });
});

describe("intent: URLs read as Android's Intent.parseUri reads them (keys and values decoded)", () => {
  test.each([
    // a never-allowed scheme in the data URI, percent-encoded or with its colon
    ["intent://x/#Intent;scheme=%6Aavascript;end", "url_scheme"],
    ["intent://x/#Intent;scheme=javascript%3A;end", "url_invalid"],
    // Android opens the text after "intent:" as the data URI
    ["intent:javascript:alert(1)#Intent;end", "url_invalid"],
    ["intent:data:text/html,x#Intent;end", "url_invalid"],
    ["intent:file:///sdcard/x#Intent;end", "url_invalid"],
    // a scheme --allow-schemes does not list, and a nested intent
    ["intent://x/#Intent;scheme=content;end", "url_scheme"],
    ["intent://x/#Intent;scheme=intent;end", "url_scheme"],
    // a selector (a second intent inside), a field Android stops at or refuses, two fragments
    ["intent://x/#Intent;scheme=zxing;SEL;scheme=javascript;end", "url_invalid"],
    ["intent://x/#Intent;scheme=zxing;endx;scheme=javascript;end", "url_invalid"],
    ["intent://x/#Intent;%73cheme=javascript;end", "url_invalid"],
    ["intent://x/#Intent;scheme=zxing", "url_invalid"],
    ["intent://x/", "url_invalid"],
  ])("%s is refused (%s)", (url, problem) => {
    expect(checkUrl(url, CONTEXT)).toMatchObject({ ok: false, problem });
  });

  test.each([
    ["https%3A%2F%2Fevil.example%2F", "ok"],
    ["http%3A%2F%2F127.0.0.1%2F", "url_local"],
    ["https%3A%2F%2Fs.example%2Floop", "url_self"],
  ])("an encoded S.browser%%5Ffallback%%5Furl=%s is the fallback Chrome reads, checked as one", (value, outcome) => {
    const url = `intent://x/#Intent;S.browser%5Ffallback%5Furl=${value};end`;
    expect(intentUrls(url)).toEqual([decodeURIComponent(value)]);
    if (outcome === "ok") {
      expect(checkDestination(url, rules("evil.example\n"))).toMatchObject({ ok: false, code: "url_blocked" });
    } else {
      expect(checkUrl(url, CONTEXT)).toEqual({ ok: false, problem: outcome as never, inIntent: "fallback" });
    }
  });

  test("scheme=http(s): the authority after intent: is a web destination, checked as one (local, self, blocklist)", () => {
    expect(checkUrl("intent://127.0.0.1:9/#Intent;scheme=http;end", CONTEXT)).toEqual({ ok: false, problem: "url_local", inIntent: "data" });
    expect(checkUrl("intent://s.example/#Intent;scheme=https;end", CONTEXT)).toEqual({ ok: false, problem: "url_self", inIntent: "data" });
    expect(checkDestination("intent://evil.example/x#Intent;scheme=https;package=com.android.chrome;end", rules("/evil\\.example\\/x/\n"))).toMatchObject({ ok: false, code: "url_blocked" });
    const fine = "intent://www.example/x#Intent;scheme=https;package=com.android.chrome;end";
    expect(checkUrl(fine, CONTEXT)).toEqual({ ok: true, url: fine });
    expect(intentUrls(fine)).toEqual(["https://www.example/x"]);
  });
});

describe("messages and the blocklist", () => {
  test("url_scheme names the allowed schemes when there are some", () => {
    expect(checkDestination("ftp://a.example/", rules("", new Set(["tg", "mailto"])))).toEqual({
      ok: false,
      code: "url_scheme",
      error: "url must be an absolute URL starting with http:// or https://, or with one of the schemes this service allows: tg:, mailto:",
    });
    expect(checkDestination("ftp://a.example/", rules("", new Set()))).toEqual({ ok: false, code: "url_scheme", error: "url must be an absolute URL starting with http:// or https://" });
  });

  test("checkWebDestination (a card image's check) takes http(s) only, whatever --allow-schemes says", () => {
    expect(checkWebDestination("tg://resolve?domain=x", rules(""))).toMatchObject({ ok: false, code: "url_scheme", error: "url must be an absolute URL starting with http:// or https://" });
    expect(checkWebDestination("https://a.example/i.png", rules(""))).toEqual({ ok: true, url: "https://a.example/i.png" });
  });

  test("a webhook's URL stays http(s), even handed the rules of an instance that allows app schemes", () => {
    const webhookRules = { ...rules(""), leave: { allowPrivate: true } } as unknown as WebhookUrlRules;
    expect(checkWebhookUrl("tg://resolve?domain=x", webhookRules)).toMatchObject({ ok: false, code: "url_scheme" });
  });

  test("an import's destinations follow --allow-schemes (the CLI's and the background jobs' checker)", async () => {
    const allowing = await importDestinations({ baseUrl: null, allowLocal: false, blocklist: null, allowSchemes: new Set(["tg"]) });
    expect(allowing("tg://resolve?domain=x")).toEqual({ ok: true, url: "tg://resolve?domain=x" });
    expect(allowing("javascript:alert(1)").ok).toBe(false);
    const plain = await importDestinations({ baseUrl: null, allowLocal: false, blocklist: null });
    expect(plain("tg://resolve?domain=x").ok).toBe(false);
  });

  test("the blocklist copes with URLs without a host: /regex/ entries see the whole URL, domains match nothing", () => {
    const list = parseBlocklist("evil.example\n/spam@/i\n");
    expect(list.matches("mailto:SPAM@b.example")).toBe(true);
    expect(list.matches("mailto:a@evil.example")).toBe(false); // an address, not a host
    expect(list.matches("spotify:track:1")).toBe(false);
    expect(checkDestination("mailto:spam@b.example", rules("/spam@/\n"))).toMatchObject({ ok: false, code: "url_blocked" });
  });
});

describe("a click's destination into an app", () => {
  test("app is set for every scheme but mailto, tel, sms and intent, never for http(s)", () => {
    expect(compileDestination("tg://resolve?domain=x").app).toBe(true);
    expect(compileDestination("spotify:track:1").app).toBe(true);
    for (const url of ["mailto:a@b.example", "tel:+15550100", "sms:+15550100", "intent://x/#Intent;end", "https://a.example/", "http://a.example/"]) expect(compileDestination(url).app).toBe(false);
  });

  test("a click's query is never merged into a non-http destination, still into an http one", () => {
    expect(withClickQuery(compileDestination("mailto:a@b.example?subject=Hi"), "utm_source=x&subject=evil")).toBe("mailto:a@b.example?subject=Hi");
    expect(withClickQuery(compileDestination("tg://resolve?domain=x"), "a=1")).toBe("tg://resolve?domain=x");
    expect(withClickQuery(compileDestination("sms:+15550100"), "&&")).toBe("sms:+15550100");
    expect(withClickQuery(compileDestination("https://a.example/?q=1"), "a=1")).toBe("https://a.example/?q=1&a=1");
  });

  test("the link's web fallback goes with an app destination, not with a 302 one nor an app fallback", () => {
    expect(compileDestination("tg://resolve?domain=x", "https://t.example/x").browser).toBe("https://t.example/x");
    expect(compileDestination("tg://resolve?domain=x", "spotify:track:1").browser).toBeNull();
    expect(compileDestination("mailto:a@b.example", "https://t.example/x").browser).toBeNull();
    expect(compileDestination("https://a.example/", "https://t.example/x").browser).toBeNull();
  });
});
