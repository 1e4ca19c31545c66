// iosUrl and androidUrl (docs/managing-links.md: Links into apps on phones) on a real server on
// either engine: shortcuts over redirect rules, written by create (JSON and form), PATCH and an
// import row, read back from the rules, and followed by clicks from an iPhone and an Android phone
// while a desktop goes to the link's own URL.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click } from "../support/clicks.ts";
import { BROWSERS } from "../fixtures/user-agents.ts";

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
}, 60_000);
afterAll(() => server.dispose());

function ua(name: string): string {
  const found = BROWSERS.find((c) => c.name === name);
  if (found?.ua == null) throw new Error(`no fixture ${name}`);
  return found.ua;
}
const IPHONE = ua("Safari on iPhone");
const ANDROID = ua("Chrome on Android phone (Pixel 8)");
const DESKTOP = ua("Chrome on Windows");
const IOS = "https://apps.example.com/ios";
const PLAY = "https://apps.example.com/android";
const link = async (id: string) => (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data;
const goesTo = async (id: string, agent: string) => {
  const r = await click(server.url, id, { "user-agent": agent });
  expect(r.status).toBe(302);
  return r.headers.get("location");
};
const COUNTRY_RULE = { conditions: [{ type: "country", value: "DE" }], url: "https://example.com/de" };

describe("iosUrl and androidUrl", () => {
  test("a JSON create takes them; the link shows them and its rules; an iPhone, an Android phone and a desktop each go their way", async () => {
    const created = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/web", custom_url: "apps-json", iosUrl: IOS, androidUrl: PLAY });
    expect(created.status).toBe(201);
    const got = await link("apps-json");
    expect(got).toMatchObject({ iosUrl: IOS, androidUrl: PLAY });
    expect(got.rules).toEqual([{ conditions: [{ type: "os", value: "ios" }], url: IOS }, { conditions: [{ type: "os", value: "android" }], url: PLAY }]);
    expect(await goesTo("apps-json", IPHONE)).toBe(IOS);
    expect(await goesTo("apps-json", ANDROID)).toBe(PLAY);
    expect(await goesTo("apps-json", DESKTOP)).toBe("https://example.com/web");
  });

  test("a link without them shows null; a form create takes ios_url; an empty android_url is none", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/n", custom_url: "apps-none" });
    expect(await link("apps-none")).toMatchObject({ iosUrl: null, androidUrl: null, rules: [] });
    const form = new FormData();
    form.set("url", "https://example.com/form");
    form.set("custom_url", "apps-form");
    form.set("ios_url", IOS);
    form.set("android_url", "");
    expect((await fetch(`${server.url}/api/create`, { method: "POST", body: form, headers: { Authorization: `Bearer ${admin}` } })).status).toBe(201);
    expect(await link("apps-form")).toMatchObject({ iosUrl: IOS, androidUrl: null });
    expect(await goesTo("apps-form", IPHONE)).toBe(IOS);
  });

  test("given with rules, the shortcut is put first and the rules follow", async () => {
    const created = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/r", custom_url: "apps-rules", rules: [COUNTRY_RULE], ios_url: IOS });
    expect(created.status).toBe(201);
    expect((await link("apps-rules")).rules).toEqual([{ conditions: [{ type: "os", value: "ios" }], url: IOS }, COUNTRY_RULE]);
  });

  test("PATCH replaces, clears, and applies onto the rules given in the same request; the next click follows at once", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/p", custom_url: "apps-patch", rules: [COUNTRY_RULE], iosUrl: IOS });
    expect(await goesTo("apps-patch", IPHONE)).toBe(IOS);
    const replaced = await api(server.url, admin, "PATCH", "/api/links/apps-patch", { iosUrl: "https://apps.example.com/ios2", androidUrl: PLAY });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ iosUrl: "https://apps.example.com/ios2", androidUrl: PLAY });
    expect(replaced.body.data.rules).toHaveLength(3); // one iOS rule, not two; the country rule kept
    expect(await goesTo("apps-patch", IPHONE)).toBe("https://apps.example.com/ios2");
    const cleared = await api(server.url, admin, "PATCH", "/api/links/apps-patch", { iosUrl: null });
    expect(cleared.body.data).toMatchObject({ iosUrl: null, androidUrl: PLAY });
    expect(cleared.body.data.rules).toEqual([{ conditions: [{ type: "os", value: "android" }], url: PLAY }, COUNTRY_RULE]);
    expect(await goesTo("apps-patch", IPHONE)).toBe("https://example.com/p");
    const both = await api(server.url, admin, "PATCH", "/api/links/apps-patch", { rules: [COUNTRY_RULE], iosUrl: IOS });
    expect(both.body.data.rules).toEqual([{ conditions: [{ type: "os", value: "ios" }], url: IOS }, COUNTRY_RULE]);
    expect(both.body.data.androidUrl).toBeNull(); // the rules given replaced the stored ones
  });

  test("their URLs are checked as any rule's; over 20 rules is refused naming the shortcut; nothing is changed by a refusal", async () => {
    const own = new URL(server.url).host;
    for (const [iosUrl, code] of [["javascript:alert(1)", "url_scheme"], [`http://${own}/x`, "url_self"], ["http://127.0.0.1:9/", "url_local"]] as const) {
      const r = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/b", iosUrl });
      expect({ iosUrl, status: r.status, code: r.body.code, field: r.body.field }).toEqual({ iosUrl, status: 400, code, field: "iosUrl" });
    }
    const twenty = Array.from({ length: 20 }, (_, i) => ({ conditions: [{ type: "query", key: "n", value: String(i) }], url: `https://example.com/q${i}` }));
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/full", custom_url: "apps-full", rules: twenty })).status).toBe(201);
    const full = await api(server.url, admin, "PATCH", "/api/links/apps-full", { androidUrl: PLAY });
    expect(full.status).toBe(400);
    expect(full.body).toMatchObject({ success: false, code: "rules_invalid", field: "androidUrl" });
    expect(full.body.error).toContain("20");
    expect((await link("apps-full")).rules).toHaveLength(20);
    const created = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/full", rules: twenty, ios_url: IOS });
    expect(created.body).toMatchObject({ code: "rules_invalid", field: "ios_url" });
  });

  test("with a split of the link's own destination: an iPhone goes to iosUrl, a desktop to a variant", async () => {
    const variants = [{ url: "https://example.com/a", weight: 1 }, { url: "https://example.com/b", weight: 1 }];
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/s", custom_url: "apps-split", variants, iosUrl: IOS })).status).toBe(201);
    expect(await goesTo("apps-split", IPHONE)).toBe(IOS);
    expect(["https://example.com/a", "https://example.com/b"]).toContain((await goesTo("apps-split", DESKTOP))!);
  });

  test("an import row takes ios_url and android_url; the export carries them as rules, and imports back the same", async () => {
    const csv = `url,custom_url,ios_url,android_url\r\nhttps://example.com/i,apps-import,${IOS},${PLAY}\r\n`;
    const imported = await api(server.url, admin, "POST", "/api/links/import", csv, { "content-type": "text/csv" });
    expect(imported.body.data.failed).toEqual([]);
    expect(await link("apps-import")).toMatchObject({ iosUrl: IOS, androidUrl: PLAY });
    const exported = (await api(server.url, admin, "GET", "/api/links/export?format=json")).body as any[];
    const row = exported.find((r) => r.custom_url === "apps-import");
    expect(row.rules).toHaveLength(2);
    expect(Object.keys(row)).not.toContain("ios_url");
    const b = await startServer();
    try {
      const keyB = makeKey(b.dbPath, "apps");
      expect((await api(b.url, keyB, "POST", "/api/links/import", JSON.stringify([row]), { "content-type": "application/json" })).body.data.failed).toEqual([]);
      expect((await api(b.url, keyB, "GET", "/api/links/apps-import")).body.data).toMatchObject({ iosUrl: IOS, androidUrl: PLAY });
    } finally {
      await b.dispose();
    }
  }, 60_000);
});
