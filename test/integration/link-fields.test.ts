// The fields of #22 (rules, variants, password, redirect code, validFrom, fallback URL, crawlable)
// through every way in and out, against a real server on either engine: a JSON and a form create,
// PATCH (null clears each), GET, the list, an export imported into a fresh instance (lossless,
// the password still working there from its hash), and who may change them.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, UA } from "../support/clicks.ts";
import { parseCsv } from "../../src/util/csv.ts";

const HOUR = 3_600_000;
const PASSWORD = "open sesame 42";
let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
});
afterAll(() => server.dispose());

const FROM = "2020-06-01T12:00:00.000Z"; // in the past, so that the links redirect
const RULES = [
  { conditions: [{ type: "device", value: "mobile" }, { type: "language", value: "pt-BR" }], url: "https://mobile-pt.example/" },
  { conditions: [{ type: "query", key: "src", value: "mail" }], variants: [{ url: "https://mail-a.example/", weight: 1 }, { url: "https://mail-b.example/", weight: 4 }] },
  { conditions: [{ type: "cidr", value: "2001:db8::/32" }, { type: "country", value: "DE" }, { type: "before", value: "2099-01-01T00:00:00.000Z" }], url: "https://v6-de.example/" },
];
const VARIANTS = [{ url: "https://split-a.example/", weight: 3 }, { url: "https://split-b.example/", weight: 7 }];

/** What a Link says about its behaviour. */
const behaviour = (l: any) => ({
  rules: l.rules, variants: l.variants, passwordProtected: l.passwordProtected, redirectType: l.redirectType, validFrom: l.validFrom, fallbackUrl: l.fallbackUrl,
  crawlable: l.crawlable, warnings: l.warnings,
});
const FULL = {
  rules: RULES, variants: VARIANTS, passwordProtected: true, redirectType: 308, validFrom: FROM, fallbackUrl: "https://fallback.example/", crawlable: true,
  warnings: [expect.stringContaining("redirectType 308 is permanent")],
};
const PLAIN = { rules: [], variants: null, passwordProtected: false, redirectType: 302, validFrom: null, fallbackUrl: null, crawlable: false, warnings: undefined };

describe("in and out of the API", () => {
  test("a JSON create (snake_case) with every field: GET and the list show them, normalized, without the password", async () => {
    const created = await api(server.url, admin, "POST", "/api/create", {
      url: "https://example.com/json", custom_url: "all-json", rules: RULES, variants: VARIANTS, password: PASSWORD, redirect_type: 308, valid_from: "2020-06-01T14:00:00+02:00",
      fallback_url: "https://fallback.example/", crawlable: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.warnings).toEqual([expect.stringContaining("308")]);
    const link = (await api(server.url, admin, "GET", "/api/links/all-json")).body.data;
    expect(behaviour(link)).toEqual(FULL);
    const listed = (await api(server.url, admin, "GET", "/api/links?q=all-json")).body.data.links;
    expect(listed.map(behaviour)).toEqual([FULL]);
    expect(JSON.stringify(link) + JSON.stringify(listed)).not.toContain(PASSWORD);
  });

  test("a JSON create in the management API's own names (camelCase) is the same", async () => {
    const created = await api(server.url, admin, "POST", "/api/create", {
      url: "https://example.com/camel", custom_url: "all-camel", rules: RULES, variants: VARIANTS, password: PASSWORD, redirectType: 308, validFrom: FROM,
      fallbackUrl: "https://fallback.example/", crawlable: true,
    });
    expect(created.status).toBe(201);
    expect(behaviour((await api(server.url, admin, "GET", "/api/links/all-camel")).body.data)).toEqual(FULL);
  });

  test("a multipart and an urlencoded form create (JSON text for rules and variants) are the same", async () => {
    const fields: Record<string, string> = {
      url: "https://example.com/form", rules: JSON.stringify(RULES), variants: JSON.stringify(VARIANTS), password: PASSWORD, redirect_type: "308", valid_from: FROM,
      fallback_url: "https://fallback.example/", crawlable: "on",
    };
    const multipart = new FormData();
    for (const [k, v] of Object.entries({ ...fields, custom_url: "all-multipart" })) multipart.append(k, v);
    expect((await api(server.url, null, "POST", "/api/create", multipart)).status).toBe(201);
    const urlencoded = new URLSearchParams({ ...fields, custom_url: "all-urlencoded", crawlable: "true" }).toString();
    expect((await api(server.url, null, "POST", "/api/create", urlencoded, { "content-type": "application/x-www-form-urlencoded" })).status).toBe(201);
    for (const id of ["all-multipart", "all-urlencoded"]) expect(behaviour((await api(server.url, admin, "GET", `/api/links/${id}`)).body.data)).toEqual(FULL);
    // The password works as set by the form.
    expect((await click(server.url, "all-multipart", { "x-link-password": PASSWORD })).status).toBe(308);
  });

  test("an empty form field means none; an empty rules list is no rules", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ url: "https://example.com/empty", custom_url: "all-empty", rules: "", variants: "", password: "", redirect_type: "", valid_from: "", fallback_url: "", crawlable: "" })) form.append(k, v);
    expect((await api(server.url, null, "POST", "/api/create", form)).status).toBe(201);
    expect(behaviour((await api(server.url, admin, "GET", "/api/links/all-empty")).body.data)).toEqual(PLAIN);
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/e2", custom_url: "all-empty-2", rules: [] })).status).toBe(201);
    expect((await api(server.url, admin, "GET", "/api/links/all-empty-2")).body.data.rules).toEqual([]);
    expect((await click(server.url, "all-empty-2")).status).toBe(302);
  });

  test("PATCH sets every field (camelCase), then null clears every one of them; the clicks follow at once", async () => {
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/patch", custom_url: "all-patch" })).status).toBe(201);
    const set = await api(server.url, admin, "PATCH", "/api/links/all-patch", {
      rules: RULES, variants: VARIANTS, password: PASSWORD, redirectType: 308, validFrom: FROM, fallbackUrl: "https://fallback.example/", crawlable: true,
    });
    expect(set.status).toBe(200);
    expect(behaviour(set.body.data)).toEqual(FULL);
    expect((await click(server.url, "all-patch")).status).toBe(401);
    const mobile = await click(server.url, "all-patch", { "x-link-password": PASSWORD, "user-agent": UA.safariIphone, "accept-language": "pt-BR" });
    expect(mobile.status).toBe(308);
    expect(mobile.headers.get("location")).toBe("https://mobile-pt.example/");

    const cleared = await api(server.url, admin, "PATCH", "/api/links/all-patch", {
      rules: null, variants: null, password: null, redirectType: null, validFrom: null, fallbackUrl: null, crawlable: null,
    });
    expect(cleared.status).toBe(200);
    expect(behaviour(cleared.body.data)).toEqual(PLAIN);
    const plain = await click(server.url, "all-patch", { "user-agent": UA.safariIphone, "accept-language": "pt-BR" });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("location")).toBe("https://example.com/patch");
  });

  test("PATCH takes only its own names: snake_case is a 400 naming the field, and nothing changes", async () => {
    for (const body of [{ redirect_type: 301 }, { valid_from: FROM }, { fallback_url: "https://x.example/" }, { password_hash: "$argon2id$v=19$m=65536,t=2,p=1$abcdefgh$abcdefghijklmnopqrstuv" }]) {
      const r = await api(server.url, admin, "PATCH", "/api/links/all-empty", body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "bad_request", error: expect.stringContaining(Object.keys(body)[0]!) });
    }
    expect(behaviour((await api(server.url, admin, "GET", "/api/links/all-empty")).body.data)).toEqual(PLAIN);
  });

  test("PATCH with \"\" is not a way to clear (null is): 400 naming the field, and the password stays", async () => {
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/blank", custom_url: "all-blank", password: PASSWORD, fallback_url: "https://fallback.example/" })).status).toBe(201);
    for (const [field, code] of [["password", "password_invalid"], ["fallbackUrl", "url_missing"], ["validFrom", "valid_from_invalid"], ["redirectType", "redirect_type_invalid"], ["rules", "rules_invalid"], ["variants", "variants_invalid"], ["crawlable", "bad_request"]]) {
      const r = await api(server.url, admin, "PATCH", "/api/links/all-blank", { [field!]: "" });
      expect({ field, status: r.status }).toEqual({ field, status: 400 });
      expect(r.body).toMatchObject({ code, field });
    }
    expect((await api(server.url, admin, "GET", "/api/links/all-blank")).body.data).toMatchObject({ passwordProtected: true, fallbackUrl: "https://fallback.example/" });
    expect((await click(server.url, "all-blank", { "x-link-password": PASSWORD })).status).toBe(302);
  });

  test("a refused PATCH changes nothing, not even its good fields", async () => {
    const r = await api(server.url, admin, "PATCH", "/api/links/all-json", { crawlable: false, redirectType: 302, rules: [{ conditions: [{ type: "os", value: "amiga" }], url: "https://x.example/" }] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "rules_invalid", field: "rules", error: expect.stringContaining("rule 1, condition 1: os") });
    expect(behaviour((await api(server.url, admin, "GET", "/api/links/all-json")).body.data)).toEqual(FULL);
  });
});

describe("export and import", () => {
  test("CSV and JSON exports imported into fresh instances: every field the same, and the password still opens the link", async () => {
    const exporter = makeKey(server.dbPath, "mover", "create");
    const later = new Date(Date.now() + 24 * HOUR).toISOString();
    const made = [
      { url: "https://example.com/t1", custom_url: "trip-full", rules: RULES, variants: VARIANTS, password: PASSWORD, redirect_type: 307, valid_from: FROM, fallback_url: "https://fallback.example/t1", crawlable: true, tags: ["x"], max_clicks: 9 },
      { url: "https://example.com/t2", custom_url: "trip-later", valid_from: later, redirect_type: 301, expires_at: "2099-01-01" },
      { url: "https://example.com/t3", custom_url: "trip-plain" },
    ];
    for (const m of made) expect((await api(server.url, exporter, "POST", "/api/create", m)).status).toBe(201);
    const before = (await api(server.url, exporter, "GET", "/api/links?order=asc")).body.data.links;
    expect(before.map((l: { id: string }) => l.id)).toEqual(["trip-full", "trip-later", "trip-plain"]);

    const csv = (await api(server.url, exporter, "GET", "/api/links/export?format=csv")).body as string;
    const records = parseCsv(csv);
    const column = (name: string) => records[0]!.indexOf(name);
    const full = records.find((r) => r[1] === "trip-full")!;
    expect(JSON.parse(full[column("rules")]!)).toEqual(RULES);
    expect(JSON.parse(full[column("variants")]!)).toEqual(VARIANTS);
    expect(full[column("password_hash")]).toMatch(/^\$argon2id\$/);
    expect([full[column("redirect_type")], full[column("valid_from")], full[column("fallback_url")], full[column("crawlable")]]).toEqual(["307", FROM, "https://fallback.example/t1", "true"]);
    const plainRecord = records.find((r) => r[1] === "trip-plain")!;
    expect([plainRecord[column("rules")], plainRecord[column("variants")], plainRecord[column("password_hash")], plainRecord[column("redirect_type")], plainRecord[column("crawlable")]]).toEqual(["", "", "", "302", "false"]);
    expect(csv).not.toContain(PASSWORD);
    const json = (await api(server.url, exporter, "GET", "/api/links/export?format=json")).body as any[];
    expect(json.find((r) => r.custom_url === "trip-full")).toMatchObject({ rules: RULES, variants: VARIANTS, redirect_type: 307, valid_from: FROM, fallback_url: "https://fallback.example/t1", crawlable: true, password_hash: full[column("password_hash")] });
    expect(json.find((r) => r.custom_url === "trip-plain")).toMatchObject({ rules: null, variants: null, password_hash: null, redirect_type: 302, valid_from: null, fallback_url: null, crawlable: false });

    const shape = (l: any) => ({ id: l.id, originalUrl: l.originalUrl, tags: l.tags, expiresAt: l.expiresAt, maxClicks: l.maxClicks, ...behaviour(l) });
    for (const [body, type] of [[csv, "text/csv"], [JSON.stringify(json), "application/json"]] as const) {
      const fresh = await startServer();
      try {
        const freshKey = makeKey(fresh.dbPath, "mover");
        const imported = await api(fresh.url, freshKey, "POST", "/api/links/import", body, { "content-type": type });
        expect(imported.status).toBe(200);
        expect(imported.body.data.failed).toEqual([]);
        const after = (await api(fresh.url, freshKey, "GET", "/api/links?order=asc")).body.data.links;
        expect(after.map(shape)).toEqual(before.map(shape));
        // The hash came over as it was: the same password opens the link, a wrong one does not.
        expect((await click(fresh.url, "trip-full")).status).toBe(401);
        expect((await click(fresh.url, "trip-full", { "x-link-password": "wrong" })).status).toBe(403);
        const opened = await click(fresh.url, "trip-full?src=mail", { "x-link-password": PASSWORD, "user-agent": UA.firefoxLinux });
        expect(opened.status).toBe(307);
        expect(opened.headers.get("location")).toMatch(/^https:\/\/mail-[ab]\.example\/\?src=mail$/);
        const mobile = await click(fresh.url, "trip-full", { "x-link-password": PASSWORD, "user-agent": UA.safariIphone, "accept-language": "pt-BR,pt;q=0.9" });
        expect(mobile.headers.get("location")).toBe("https://mobile-pt.example/");
        expect((await click(fresh.url, "trip-later")).status).toBe(404);
        expect((await click(fresh.url, "trip-plain")).status).toBe(302);
        expect(await (await fetch(`${fresh.url}/robots.txt`)).text()).toContain("Allow: /trip-full$");
      } finally {
        await fresh.dispose();
      }
    }
  }, 30_000);

  test("an import row's password_hash must be an argon2id hash; a password column sets one; bad rules fail their row", async () => {
    const rows = [
      { url: "https://example.com/i1", custom_url: "imp-bad-hash", password_hash: "$2b$10$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz0123" },
      { url: "https://example.com/i2", custom_url: "imp-plain-hash", password_hash: "secret" },
      { url: "https://example.com/i3", custom_url: "imp-password", password: PASSWORD },
      { url: "https://example.com/i4", custom_url: "imp-both", password: PASSWORD, password_hash: "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG" },
      { url: "https://example.com/i5", custom_url: "imp-rules", rules: [{ conditions: [{ type: "device", value: "mobile" }] }] },
      { url: "https://example.com/i6", custom_url: "imp-rules-text", rules: "[{\"conditions\":[{\"type\":\"after\",\"value\":\"2026-01-01T00:00:00Z\"}],\"url\":\"https://after.example/\"}]" },
    ];
    const r = await api(server.url, admin, "POST", "/api/links/import", rows);
    expect(r.status).toBe(200);
    expect(r.body.data.created.map((c: { id: string }) => c.id)).toEqual(["imp-password", "imp-rules-text"]);
    expect(r.body.data.failed.map((f: { row: number; code: string }) => `${f.row}:${f.code}`)).toEqual(["1:password_invalid", "2:password_invalid", "4:password_invalid", "5:rules_invalid"]);
    expect(r.body.data.failed.find((f: { row: number }) => f.row === 5).error).toContain("rule 1: give either url or variants");
    expect((await click(server.url, "imp-password", { "x-link-password": PASSWORD })).status).toBe(302);
    expect((await api(server.url, admin, "GET", "/api/links/imp-rules-text")).body.data.rules).toEqual([
      { conditions: [{ type: "after", value: "2026-01-01T00:00:00.000Z" }], url: "https://after.example/" },
    ]);
  });
});

describe("who may change a link's rules", () => {
  let ownerA: string;
  let ownerB: string;
  const RULE = [{ conditions: [{ type: "device", value: "tablet" }], url: "https://tablet.example/" }];
  beforeAll(async () => {
    ownerA = makeKey(server.dbPath, "team-a", "create");
    ownerB = makeKey(server.dbPath, "team-b", "create");
    expect((await api(server.url, ownerA, "POST", "/api/create", { url: "https://a.example/", custom_url: "owned-a" })).status).toBe(201);
  });

  test("no key: 401; a wrong key: 401; another create key's link: 404; its own key and an admin key: 200", async () => {
    const patch = (k: string | null) => api(server.url, k, "PATCH", "/api/links/owned-a", { rules: RULE, password: "x", fallbackUrl: "https://f.example/" });
    const none = await patch(null);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "auth_required" });
    const wrong = await patch("sk_" + "y".repeat(32));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "auth_invalid" });
    const other = await patch(ownerB);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "not_found" });
    const link = (await api(server.url, admin, "GET", "/api/links/owned-a")).body.data;
    expect(behaviour(link)).toEqual(PLAIN);
    expect((await click(server.url, "owned-a")).status).toBe(302);

    const own = await api(server.url, ownerA, "PATCH", "/api/links/owned-a", { rules: RULE });
    expect(own.status).toBe(200);
    expect(own.body.data.rules).toEqual(RULE);
    expect((await api(server.url, admin, "PATCH", "/api/links/owned-a", { redirectType: 307 })).body.data).toMatchObject({ rules: RULE, redirectType: 307 });
    // Another key cannot read it either.
    expect((await api(server.url, ownerB, "GET", "/api/links/owned-a")).status).toBe(404);
  });
});
