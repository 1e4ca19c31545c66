// A link's title through our own API, on a real server on either engine (docs/api.md: Create a
// short link; docs/link-titles.md: Link titles): a form and a JSON create, GET and the list, PATCH
// setting and clearing it, the list's search, and a title that cannot be taken refused by name.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
});
afterAll(() => server.dispose());

const link = async (id: string) => (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data;

describe("titles through the API", () => {
  test("a form create takes title, tidied (whitespace collapsed, trimmed); GET and the list show it", async () => {
    const form = new FormData();
    form.set("url", "https://example.com/form");
    form.set("custom_url", "form-titled");
    form.set("title", "  A  page\n with   spaces  ");
    const created = await fetch(`${server.url}/api/create`, { method: "POST", body: form, headers: { Authorization: `Bearer ${admin}` } });
    expect(created.status).toBe(201);
    expect((await link("form-titled")).title).toBe("A page with spaces");
    const listed = (await api(server.url, admin, "GET", "/api/links?q=form-titled")).body.data.links;
    expect(listed.map((l: any) => l.title)).toEqual(["A page with spaces"]);
  });

  test("a JSON create takes title; none is null; an empty one is none", async () => {
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/j", custom_url: "json-titled", title: "Café – menu" })).status).toBe(201);
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/k", custom_url: "json-untitled" })).status).toBe(201);
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/l", custom_url: "json-empty", title: "" })).status).toBe(201);
    expect((await link("json-titled")).title).toBe("Café – menu");
    expect((await link("json-untitled")).title).toBeNull();
    expect((await link("json-empty")).title).toBeNull();
  });

  test("PATCH sets and clears the title", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/p", custom_url: "patched" });
    const set = await api(server.url, admin, "PATCH", "/api/links/patched", { title: "Named later" });
    expect(set.status).toBe(200);
    expect(set.body.data.title).toBe("Named later");
    const cleared = await api(server.url, admin, "PATCH", "/api/links/patched", { title: null });
    expect(cleared.body.data.title).toBeNull();
  });

  test("the list's search finds a link by words of its title", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/s", custom_url: "searched", title: "Wombat Almanac 2027" });
    const found = (await api(server.url, admin, "GET", "/api/links?q=wombat%20almanac")).body.data.links;
    expect(found.map((l: any) => l.id)).toEqual(["searched"]);
  });

  test("a title too long or not text: 400 title_invalid naming the field as sent", async () => {
    const long = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/t", title: "x".repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ success: false, code: "title_invalid", field: "title" });
    const notText = await api(server.url, admin, "PATCH", "/api/links/patched", { title: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body).toMatchObject({ success: false, code: "title_invalid", field: "title" });
    // 500 characters, counted as characters (not UTF-16 units): taken.
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/u", custom_url: "emoji-title", title: "😀".repeat(500) })).status).toBe(201);
    expect([...(await link("emoji-title")).title].length).toBe(500);
  });

  test("the statistics show the title as they show the destination: to anyone for a plain link, to the owner only for one with a password", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/v", custom_url: "stats-titled", title: "Open Day" });
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/w", custom_url: "stats-locked", title: "Private Plans", password: "sesame sesame" });
    const anyone = async (id: string) => (await api(server.url, null, "GET", `/api/stats?id=${id}`)).body.data.link;
    expect(await anyone("stats-titled")).toMatchObject({ title: "Open Day", originalUrl: "https://example.com/v" });
    expect(await anyone("stats-locked")).toMatchObject({ title: null, originalUrl: "" });
    expect((await api(server.url, admin, "GET", "/api/stats?id=stats-locked")).body.data.link.title).toBe("Private Plans");
  });
});
