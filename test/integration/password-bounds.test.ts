// Password hashes within bounds (#33, finding 4), against a real server on either engine: an import
// of a hash that asks argon2 for 2 GiB or 999 passes is refused row by row as password_invalid (JSON
// and CSV), a hash this build writes travels and opens its link; a stored hash outside the bounds
// (planted with the engine's own client, as an older version could have written it) is named at
// start-up, and its link answers 423 locked, page and JSON, without verifying anything, until the
// owner sets a new password or removes it.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";
import { openStored } from "../support/stored.ts";
import { argon2id, forged } from "../support/argon2.ts";
import { LANGUAGES } from "../../src/lang.ts";
import { MESSAGES } from "../../web/i18n/index.ts";

const PASSWORD = "correct horse battery staple";
const BOMB = forged({ m: 2_097_152, t: 2, p: 1 }); // 2 GiB a guess: never computed, here or there
const SLOW = forged({ m: 65536, t: 999, p: 1 });
let first: RunningServer;
/** The first server, then the one started again on its database. */
let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = first = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
  key = makeKey(server.dbPath, "owner");
}, 30_000);
afterAll(async () => {
  await server.dispose();
  await first.dispose(); // the folder and the database go with the first
});

let lastAddress = 0;
const get = (id: string, headers: Record<string, string> = {}, method = "GET") =>
  click(server.url, id, { "user-agent": UA.firefoxLinux, "x-forwarded-for": `198.51.100.${++lastAddress}`, ...headers }, method);

async function protectedLink(id: string) {
  expect((await api(server.url, key, "POST", "/api/create", { url: `https://secret.example/${id}`, custom_url: id, password: PASSWORD })).status).toBe(201);
}

/** The hash the server wrote for a link, as its export shows it. */
async function exportedHash(id: string): Promise<string> {
  return (await api(server.url, key, "GET", `/api/links/export?format=json&ids=${id}`)).body[0].password_hash;
}

async function totalClicks(id: string): Promise<number> {
  await drained(server.url);
  return (await stats(server.url, `id=${id}`)).data.stats.totalClicks;
}

describe("an import takes a hash only within the bounds", () => {
  test("JSON: 2 GiB and t=999 are refused as password_invalid, naming the bounds; this build's hash is kept and opens the link", async () => {
    await protectedLink("own-hash");
    const own = await exportedHash("own-hash");
    const r = await api(server.url, key, "POST", "/api/links/import", [
      { url: "https://example.com/1", custom_url: "imp-bomb", password_hash: BOMB },
      { url: "https://example.com/2", custom_url: "imp-slow", password_hash: SLOW },
      { url: "https://secret.example/3", custom_url: "imp-own", password_hash: own },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.created.map((c: { id: string }) => c.id)).toEqual(["imp-own"]);
    expect(r.body.data.failed.map((f: { row: number; code: string }) => `${f.row}:${f.code}`)).toEqual(["1:password_invalid", "2:password_invalid"]);
    for (const f of r.body.data.failed) expect(f.error).toContain("m at most 65536 KiB (64 MiB)");
    expect(r.body.data.failed[0].error).toContain("m=2097152 is out of bounds");
    expect(r.body.data.failed[1].error).toContain("t=999 is out of bounds");
    for (const id of ["imp-bomb", "imp-slow"]) expect((await api(server.url, key, "GET", `/api/links/${id}`)).status).toBe(404);
    const opened = await get("imp-own", { "x-link-password": PASSWORD });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("https://secret.example/3");
  }, 30_000);

  test("CSV: the same rule", async () => {
    const csv = ["url,custom_url,password_hash", `https://example.com/c1,csv-bomb,"${BOMB}"`, `https://example.com/c2,csv-slow,"${SLOW}"`, `https://example.com/c3,csv-fine,"${forged({ m: 65536, t: 4, p: 4 })}"`].join("\n");
    const r = await api(server.url, key, "POST", "/api/links/import", csv, { "content-type": "text/csv" });
    expect(r.status).toBe(200);
    expect(r.body.data.created.map((c: { id: string }) => c.id)).toEqual(["csv-fine"]);
    expect(r.body.data.failed).toMatchObject([{ row: 1, code: "password_invalid" }, { row: 2, code: "password_invalid" }]);
  }, 30_000);
});

describe("a stored hash outside the bounds: reported at start, locked until a new password", () => {
  beforeAll(async () => {
    for (const id of ["lk-bomb", "lk-slow", "lk-p5", "lk-fine", "lk-gone"]) await protectedLink(id);
    // Stopped, with a fallback: where a visitor goes once the link's password is given.
    expect((await api(server.url, key, "PATCH", "/api/links/lk-gone", { disabled: true, fallbackUrl: "https://fallback.example/" })).status).toBe(200);
    // As an older version would have stored them: written with the engine's own client, the service stopped.
    await server.stop();
    const db = await openStored(server, { write: true });
    await db.run("UPDATE links SET password_hash = ? WHERE id = ?", BOMB, "lk-bomb");
    // Real hashes of the password, cheap to compute but one pass or one lane over the bounds: a
    // verify would open them, so a refused right password shows that none ran.
    await db.run("UPDATE links SET password_hash = ? WHERE id = ?", argon2id(PASSWORD, { m: 1024, t: 5, p: 1 }), "lk-slow");
    await db.run("UPDATE links SET password_hash = ? WHERE id = ?", argon2id(PASSWORD, { m: 64, t: 1, p: 5 }), "lk-p5");
    await db.run("UPDATE links SET password_hash = ? WHERE id = ?", argon2id(PASSWORD, { m: 1024, t: 5, p: 1 }), "lk-gone");
    await db.close();
    server = await startServer({ args: ["--trust-proxy", "127.0.0.1"], dir: server.dir });
  }, 30_000);

  test("the start-up log names the locked links, once, and says the owner must set a new password", () => {
    const lines = server.output().split("\n").filter((l) => l.includes("locked"));
    expect(lines).toHaveLength(1);
    for (const id of ["lk-bomb", "lk-slow", "lk-p5", "lk-gone"]) expect(lines[0]).toContain(id);
    expect(lines[0]).not.toContain("lk-fine");
    expect(lines[0]).toContain("new password");
  }, 30_000);

  test("a browser gets a 423 page in its language (every language the password page has); HEAD too; not a click", async () => {
    for (const lang of LANGUAGES) {
      const res = await get("lk-bomb", { "accept-language": lang });
      expect({ lang, status: res.status }).toEqual({ lang, status: 423 });
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("content-language")).toBe(lang);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("location")).toBeNull();
      const page = await res.text();
      expect(page).toContain(MESSAGES[lang].password_locked_title);
      expect(page).not.toContain("secret.example");
      expect(page).not.toContain('name="password"');
    }
    expect((await get("lk-bomb", {}, "HEAD")).status).toBe(423);
    expect(await totalClicks("lk-bomb")).toBe(0);
  }, 30_000);

  test("a script gets 423 password_locked even with the right password; the form gets the page; nothing is verified or counted", async () => {
    for (const id of ["lk-slow", "lk-p5"]) {
      const res = await get(id, { "x-link-password": PASSWORD });
      expect(res.status).toBe(423);
      expect(await res.json()).toMatchObject({ success: false, code: "password_locked" });
      const form = await fetch(`${server.url}/${id}`, {
        method: "POST", redirect: "manual", body: `password=${encodeURIComponent(PASSWORD)}`,
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "192.0.2.77" },
      });
      expect(form.status).toBe(423);
      expect(form.headers.get("content-type")).toContain("text/html");
      expect(await totalClicks(id)).toBe(0);
    }
    // Twelve guesses from one address spent none of its ten tokens: its next guess elsewhere is checked.
    // (Never a guess at lk-bomb: were it verified, by a regression or the code before, it would cost 2 GiB.)
    for (let i = 0; i < 12; i++) expect((await click(server.url, "lk-p5", { "x-forwarded-for": "192.0.2.78", "x-link-password": `guess ${i}` })).status).toBe(423);
    expect((await click(server.url, "lk-fine", { "x-forwarded-for": "192.0.2.78", "x-link-password": "wrong" })).status).toBe(403);
    expect((await click(server.url, "lk-fine", { "x-forwarded-for": "192.0.2.78", "x-link-password": PASSWORD })).status).toBe(302);
  }, 30_000);

  test("an edit that is not the password keeps it locked; a new password unlocks it; removing the password opens it", async () => {
    expect((await api(server.url, key, "PATCH", "/api/links/lk-p5", { tags: ["old"] })).status).toBe(200);
    expect((await get("lk-p5", { "x-link-password": PASSWORD })).status).toBe(423);
    expect((await api(server.url, key, "PATCH", "/api/links/lk-slow", { password: "a new one" })).status).toBe(200);
    expect((await get("lk-slow", { "x-link-password": PASSWORD })).status).toBe(403);
    const opened = await get("lk-slow", { "x-link-password": "a new one" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("https://secret.example/lk-slow");
    expect((await get("lk-slow")).status).toBe(401); // the password page again, not the locked one
    expect((await api(server.url, key, "PATCH", "/api/links/lk-p5", { password: null })).status).toBe(200);
    expect((await get("lk-p5")).headers.get("location")).toBe("https://secret.example/lk-p5");
    expect(await totalClicks("lk-slow")).toBe(1);
  }, 30_000);

  test("a stopped link with a fallback is locked too: the right password opens neither it nor its fallback", async () => {
    const res = await get("lk-gone", { "x-link-password": PASSWORD });
    expect(res.status).toBe(423);
    expect(await res.json()).toMatchObject({ code: "password_locked" });
    for (const method of ["GET", "HEAD"]) {
      const page = await get("lk-gone", {}, method);
      expect(page.status).toBe(423);
      expect(page.headers.get("location")).toBeNull();
    }
  }, 30_000);
});
