// A link's preview card fields through our own API, on a real server on either engine
// (docs/sharing.md: Preview cards; docs/managing-links.md: Managing links): a form and a JSON
// create, PATCH changing and clearing them, bounds refused as card_invalid naming the field, and an
// image URL checked as a destination (http(s) only, not this service, not this machine).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, makeKey } from "../support/admin.ts";
import { parseCsv } from "../../src/util/csv.ts";

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
}, 60_000);
afterAll(() => server.dispose());

const link = async (id: string) => (await api(server.url, admin, "GET", `/api/links/${id}`)).body.data;
const IMAGE = "https://images.example.com/card.png";

describe("preview card fields through the API", () => {
  test("a JSON create takes the card fields under either spelling; GET and the list show them", async () => {
    const camel = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/a", custom_url: "card-camel", cardTitle: "  Spring\n sale ", cardDescription: "Up to <b>50%</b> off & more", cardImage: IMAGE });
    expect(camel.status).toBe(201);
    // Tidied as a title is, stored as written (never HTML-escaped: the card page escapes it).
    expect(await link("card-camel")).toMatchObject({ cardTitle: "Spring sale", cardDescription: "Up to <b>50%</b> off & more", cardImage: IMAGE });
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/b", custom_url: "card-snake", card_title: "Snake" })).status).toBe(201);
    expect(await link("card-snake")).toMatchObject({ cardTitle: "Snake", cardDescription: null, cardImage: null });
    const listed = (await api(server.url, admin, "GET", "/api/links?q=card-camel")).body.data.links;
    expect(listed.map((l: any) => l.cardDescription)).toEqual(["Up to <b>50%</b> off & more"]);
  });

  test("a link without a card shows the three fields as null", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/c", custom_url: "card-none" });
    expect(await link("card-none")).toMatchObject({ cardTitle: null, cardDescription: null, cardImage: null });
  });

  test("a form create takes card_title, card_description and card_image; an empty field is none", async () => {
    const form = new FormData();
    form.set("url", "https://example.com/form");
    form.set("custom_url", "card-form");
    form.set("card_title", "From a form");
    form.set("card_description", "");
    form.set("card_image", IMAGE);
    const created = await fetch(`${server.url}/api/create`, { method: "POST", body: form, headers: { Authorization: `Bearer ${admin}` } });
    expect(created.status).toBe(201);
    expect(await link("card-form")).toMatchObject({ cardTitle: "From a form", cardDescription: null, cardImage: IMAGE });
    // A form takes the spec's spelling only.
    const camel = new FormData();
    camel.set("url", "https://example.com/form2");
    camel.set("cardTitle", "x");
    expect((await fetch(`${server.url}/api/create`, { method: "POST", body: camel, headers: { Authorization: `Bearer ${admin}` } })).status).toBe(400);
  });

  test("PATCH changes one card field and leaves the others; null clears", async () => {
    await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/p", custom_url: "card-patched", cardTitle: "Before", cardDescription: "Kept" });
    const changed = await api(server.url, admin, "PATCH", "/api/links/card-patched", { cardTitle: "After", cardImage: IMAGE });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ cardTitle: "After", cardDescription: "Kept", cardImage: IMAGE });
    const cleared = await api(server.url, admin, "PATCH", "/api/links/card-patched", { cardTitle: null, cardDescription: null, cardImage: null });
    expect(cleared.body.data).toMatchObject({ cardTitle: null, cardDescription: null, cardImage: null });
    expect(await link("card-patched")).toMatchObject({ cardTitle: null, cardDescription: null, cardImage: null });
  });

  test("bounds: 200 characters of title and 500 of description taken, one more refused as card_invalid naming the field", async () => {
    expect((await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/t", custom_url: "card-long", cardTitle: "😀".repeat(200), cardDescription: "d".repeat(500) })).status).toBe(201);
    expect([...(await link("card-long")).cardTitle].length).toBe(200);
    const title = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/t", cardTitle: "x".repeat(201) });
    expect(title.status).toBe(400);
    expect(title.body).toMatchObject({ success: false, code: "card_invalid", field: "cardTitle" });
    const description = await api(server.url, admin, "PATCH", "/api/links/card-long", { cardDescription: "y".repeat(501) });
    expect(description.status).toBe(400);
    expect(description.body).toMatchObject({ success: false, code: "card_invalid", field: "cardDescription" });
    const snake = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/t", card_description: "z".repeat(501) });
    expect(snake.body).toMatchObject({ code: "card_invalid", field: "card_description" });
    // Not text: a create's body reader refuses it as it refuses any field's (bad_request); a PATCH names the field.
    expect((await api(server.url, admin, "PATCH", "/api/links/card-long", { cardTitle: 7 })).body).toMatchObject({ code: "card_invalid", field: "cardTitle" });
    expect((await link("card-long")).cardDescription).toBe("d".repeat(500)); // the refused PATCH changed nothing
  });

  test("a card image must be an http(s) URL elsewhere: other schemes, this service and this machine refused", async () => {
    const own = new URL(server.url).host;
    const refused = ["javascript:alert(1)", "data:image/png;base64,iVBORw0KGgo=", "ftp://files.example.com/a.png", `http://${own}/img.png`, "http://127.0.0.1:9/a.png", "http://[::1]/a.png", "not a url"];
    expect((await api(server.url, admin, "PATCH", "/api/links/card-none", { cardImage: 42 })).body).toMatchObject({ code: "card_invalid", field: "cardImage" });
    for (const cardImage of refused) {
      const created = await api(server.url, admin, "POST", "/api/create", { url: "https://example.com/i", cardImage });
      expect({ cardImage, status: created.status, code: created.body.code, field: created.body.field }).toEqual({ cardImage, status: 400, code: "card_invalid", field: "cardImage" });
      const patched = await api(server.url, admin, "PATCH", "/api/links/card-none", { cardImage });
      expect({ cardImage, status: patched.status, code: patched.body.code }).toEqual({ cardImage, status: 400, code: "card_invalid" });
    }
    expect((await link("card-none")).cardImage).toBeNull();
  });

  test("a create key cannot change another key's card: 404, and the card stays", async () => {
    const keyA = makeKey(server.dbPath, "card-owner-a", "create");
    const keyB = makeKey(server.dbPath, "card-owner-b", "create");
    expect((await api(server.url, keyA, "POST", "/api/create", { url: "https://example.com/o", custom_url: "card-owned", cardTitle: "Mine" })).status).toBe(201);
    const refused = await api(server.url, keyB, "PATCH", "/api/links/card-owned", { cardTitle: "Theirs", cardImage: IMAGE });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, code: "not_found" });
    expect(await link("card-owned")).toMatchObject({ cardTitle: "Mine", cardImage: null });
  });
});

describe("preview cards through export and import", () => {
  test("export (CSV and JSON) carries the card last; an import into a new instance keeps it, a formula-like one included", async () => {
    const key = makeKey(server.dbPath, "card-export", "create");
    const made = [
      { url: "https://example.com/x1", custom_url: "card-x1", cardTitle: 'Sale, "quoted", 東京 🚀', cardDescription: "<script>alert(1)</script> & more", cardImage: IMAGE },
      { url: "https://example.com/x2", custom_url: "card-x2", cardTitle: '=HYPERLINK("https://evil.example")' },
      { url: "https://example.com/x3", custom_url: "card-x3" },
    ];
    for (const m of made) expect((await api(server.url, key, "POST", "/api/create", m)).status).toBe(201);
    const csv = (await api(server.url, key, "GET", "/api/links/export?format=csv")).body as string;
    const json = (await api(server.url, key, "GET", "/api/links/export?format=json")).body as any[];
    const records = parseCsv(csv);
    expect(records[0]!.slice(-4)).toEqual(["title", "card_title", "card_description", "card_image"]);
    const card = (m: (typeof made)[number]) => [m.cardTitle ?? null, m.cardDescription ?? null, m.cardImage ?? null];
    expect(json.map((r) => [r.card_title, r.card_description, r.card_image])).toEqual(made.map(card));
    // A spreadsheet shows the formula-like card title as text: written with a ' before it.
    expect(csv).toContain(`,"'=HYPERLINK(""https://evil.example"")",,\r\n`);
    for (const [type, body] of [["text/csv", csv], ["application/json", JSON.stringify(json)]] as const) {
      const b = await startServer();
      try {
        const keyB = makeKey(b.dbPath, "cards");
        const imported = await api(b.url, keyB, "POST", "/api/links/import", body, { "content-type": type });
        expect(imported.body.data.failed).toEqual([]);
        for (const m of made) {
          const got = (await api(b.url, keyB, "GET", `/api/links/${m.custom_url}`)).body.data;
          expect({ type, got: [got.cardTitle, got.cardDescription, got.cardImage] }).toEqual({ type, got: card(m) });
        }
      } finally {
        await b.dispose();
      }
    }
  }, 60_000);

  test("an imported row's card follows the create's rules: a bad image fails that row alone, as card_invalid", async () => {
    const csv = `url,custom_url,card_title,card_image\r\nhttps://example.com/r1,card-row-ok,Fine,${IMAGE}\r\nhttps://example.com/r2,card-row-bad,Bad,javascript:alert(1)\r\n`;
    const imported = await api(server.url, admin, "POST", "/api/links/import", csv, { "content-type": "text/csv" });
    expect(imported.body.data.created.map((c: any) => c.id)).toEqual(["card-row-ok"]);
    expect(imported.body.data.failed).toMatchObject([{ row: 2, code: "card_invalid" }]);
    expect(await link("card-row-ok")).toMatchObject({ cardTitle: "Fine", cardImage: IMAGE });
  });

  test("an import from another shortener's CSV (POST /api/imports) takes the card columns --map names; an image refused here is left out and said", async () => {
    const csv = "Destination,Keyword,OG Title,OG Image\nhttps://example.com/m1,card-peer-1,Sale,https://img.example/a.png\nhttps://example.com/m2,card-peer-2,Other,ftp://img.example/b.png\n";
    const { job } = await importedThroughApi(server.url, admin, { from: "csv", csv, map: "long=Destination,alias=Keyword,card_title=OG Title,card_image=OG Image" });
    expect(job.state).toBe("done");
    expect(JSON.stringify(job)).toContain("the card image of 1 link: not an http(s) URL this service links to, not kept");
    expect(await link("card-peer-1")).toMatchObject({ cardTitle: "Sale", cardDescription: null, cardImage: "https://img.example/a.png" });
    expect(await link("card-peer-2")).toMatchObject({ cardTitle: "Other", cardImage: null });
  }, 60_000);
});
