// Destinations you can trust, against a real server (either engine): the cases of issue #21 as an
// attacker tried them on 0d31444. The blocklist is the example file's open-redirect and raw-IP
// entries, as docs/redirect-rules.md suggests them.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLink, REPO_ROOT, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, stats } from "../support/clicks.ts";

let server: RunningServer;
let key: string;

beforeAll(async () => {
  const first = await startServer();
  const listPath = join(first.dir, "blocklist.txt");
  await first.stop();
  const example = readFileSync(join(REPO_ROOT, "scripts/blocklist.example.txt"), "utf8");
  writeFileSync(listPath, example.split("\n").filter((line) => line.startsWith("/")).join("\n") + "\n");
  server = await startServer({ dir: first.dir, args: ["--blocklist", listPath, "--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());

describe("1. a click's query", () => {
  test("that would add a blocked parameter answers 410 blocked and is not a click; a harmless one is followed", async () => {
    expect((await createLink(server.url, { url: "https://ok.example/go", custom_url: "okgo" })).status).toBe(201);
    const blocked = await click(server.url, "okgo?url=https://evil.example/phish");
    expect(blocked.status).toBe(410);
    expect(blocked.headers.get("location")).toBeNull();
    expect(await blocked.text()).toContain("blocked");
    const fine = await click(server.url, "okgo?utm_source=mail");
    expect(fine.status).toBe(302);
    expect(fine.headers.get("location")).toBe("https://ok.example/go?utm_source=mail");
    await drained(server.url);
    expect((await stats(server.url, "id=okgo")).data.stats.totalClicks).toBe(1);
  });

  test("cannot replace a parameter of the link's own URL", async () => {
    expect((await createLink(server.url, { url: "https://ok.example/login?next=/home", custom_url: "login-next" })).status).toBe(201);
    const res = await click(server.url, "login-next?next=https://evil.example/&lang=de");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://ok.example/login?next=/home&lang=de");
  });
});

describe("2. regex entries see the normalized URL", () => {
  const rawIp = ["HTTP://1.2.3.4/", "http://1.2.3.4./", "http://0x01020304/", "http://16909060/", "http://1.2.772/"];
  const openRedirect = ["https://ok.example/r?%75rl=https://evil.example/", "https://ok.example/r?url=%68ttps://evil.example/", "https://ok.example/r?url=//evil.example/", "https://ok.example/r;url=https://evil.example/"];
  test.each([...rawIp, ...openRedirect])("create %s: refused", async (url) => {
    const r = await createLink(server.url, { url });
    expect(r.status).toBe(400);
    expect(["url_blocked", "url_invalid"]).toContain(r.body.code);
  });

  test("the same URLs through an import: every row refused", async () => {
    const csv = ["url", ...rawIp, ...openRedirect].join("\n");
    const res = await fetch(`${server.url}/api/links/import`, { method: "POST", body: csv, headers: { "content-type": "text/csv", authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: { created: unknown[]; failed: { code: string }[] } };
    expect(body.data.created).toHaveLength(0);
    expect(body.data.failed.map((f) => f.code).every((c) => c === "url_blocked" || c === "url_invalid")).toBe(true);
    expect(body.data.failed).toHaveLength(rawIp.length + openRedirect.length);
  });

  test("a URL is stored and sent in its normalized form", async () => {
    const r = await createLink(server.url, { url: "HTTPS://Example.COM:443/a/./b/../c?x=1", custom_url: "normal" });
    expect(r.status).toBe(201);
    expect((await click(server.url, "normal")).headers.get("location")).toBe("https://example.com/a/c?x=1");
    expect((await stats(server.url, "id=normal")).data.link.originalUrl).toBe("https://example.com/a/c?x=1");
  });
});

test("3. a backslash in the authority is refused (browsers and curl would go to different hosts)", async () => {
  for (const url of ["http://a.example\\@b.example/", "https://a.example\\.b.example/", "http://a.example:80\\@b.example/"]) {
    const r = await createLink(server.url, { url });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("url_invalid");
  }
  // after the path starts, a backslash is the path's business
  expect((await createLink(server.url, { url: "https://a.example/x\\y" })).status).toBe(201);
});

describe("4. loops", () => {
  test.each(["http://localhost/", "http://LOCALHOST:3000/x", "http://app.localhost/", "http://127.0.0.1:8080/", "http://[::1]/", "http://0.0.0.0/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest", "http://[fe80::1]/"])("%s: url_local", async (url) => {
    const r = await createLink(server.url, { url });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("url_local");
  });


  test("the service under another Host header is still the service", async () => {
    const port = new URL(server.url).port;
    const r = await createLink(server.url, { url: `http://127.0.0.1:${port}/x` }, { host: `shortener.test:${port}` });
    expect(r.status).toBe(400);
    expect(["url_self", "url_local"]).toContain(r.body.code);
  });

  test("--allow-loopback-destinations accepts localhost, but never the service itself", async () => {
    const open = await startServer({ args: ["--allow-loopback-destinations", "--create-rate-limit", "0"] });
    try {
      expect((await createLink(open.url, { url: "http://localhost:3000/" })).status).toBe(201);
      expect((await createLink(open.url, { url: "http://[::1]/" })).status).toBe(201);
      // private LAN addresses are allowed either way: homelabs link to their own services
      for (const url of ["http://192.168.1.10:8123/", "http://10.0.0.5/", "http://nas.lan/"]) expect((await createLink(open.url, { url })).status).toBe(201);
      const self = await createLink(open.url, { url: `${open.url}/x` }, { host: "elsewhere.test" });
      expect(self.status).toBe(400);
      expect(self.body.code).toBe("url_self");
    } finally {
      await open.dispose();
    }
  });
});

test("6. bidi controls and zero-width characters are refused, typed or percent-encoded", async () => {
  for (const url of ["https://example.com/\u202Efdp.exe", "https://exa\u200Bmple.com/", "https://example.com/%E2%80%AEfdp.exe", "https://example.com/?q=\u200Dx"]) {
    const r = await createLink(server.url, { url });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("url_invalid");
  }
  const edit = await api(server.url, key, "PATCH", "/api/links/normal", { url: "https://example.com/\u202E" });
  expect(edit.body).toMatchObject({ code: "url_invalid", field: "url" });
});
