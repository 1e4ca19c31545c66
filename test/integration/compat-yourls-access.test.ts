// /yourls-api.php (docs/yourls-api.md: Authentication) under the default --create-access public and
// --stats-access public, as YOURLS's public mode: shorturl, expand and url-stats without
// credentials, the rest with a key; a wrong key is YOURLS's 403 (includes/auth.php in
// github.com/YOURLS/YOURLS) and counts toward the failed-attempts limit (docs/security.md).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "owner", "create");
}, 60_000);
afterAll(() => server.dispose());

async function yourls(params: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${server.url}/yourls-api.php?${new URLSearchParams(params)}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe("public mode", () => {
  test("shorturl, expand and url-stats need no credentials; stats, db-stats and version do", async () => {
    const made = await yourls({ action: "shorturl", url: "https://example.com/public", format: "json" });
    expect(made.status).toBe(200);
    const { shorturl, status } = JSON.parse(made.text);
    expect(status).toBe("success");
    expect((await yourls({ action: "expand", shorturl, format: "simple" })).text).toBe("https://example.com/public");
    expect(JSON.parse((await yourls({ action: "url-stats", shorturl, format: "json" })).text).link.url).toBe("https://example.com/public");
    for (const action of ["stats", "db-stats", "version"]) expect((await yourls({ action, format: "json" })).status).toBe(403);
  });

  test("an anonymous shorturl of a URL made before is a new link: nobody's links are given again", async () => {
    const a = JSON.parse((await yourls({ action: "shorturl", url: "https://example.com/anon", format: "json" })).text);
    const b = JSON.parse((await yourls({ action: "shorturl", url: "https://example.com/anon", format: "json" })).text);
    expect([a.status, b.status]).toEqual(["success", "success"]);
    expect(a.shorturl).not.toBe(b.shorturl);
  });
});

describe("a wrong key", () => {
  test("403 Please log in even where no key is needed; past the failed-attempts limit, 429 with Retry-After", async () => {
    const wrong = await yourls({ action: "shorturl", url: "https://example.com/", signature: "sk_wrong", format: "json" });
    expect([wrong.status, JSON.parse(wrong.text)]).toEqual([403, { message: "Please log in", errorCode: "403" }]);
    let last = wrong;
    for (let i = 0; i < 12 && last.status !== 429; i++) last = await yourls({ action: "version", username: "x", password: "guess", format: "json" });
    expect(last.status).toBe(429);
    expect(JSON.parse(last.text).errorCode).toBe("429");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    // A real key still passes (src/http/auth.ts checkSecret: a key in the generated format is looked up).
    expect((await yourls({ action: "version", signature: key, format: "simple" })).status).toBe(200);
  });
});

describe("a request not addressed to this service", () => {
  test("421 in YOURLS's shape, in the format the query asks for (a page whose own name points here: DNS rebinding)", async () => {
    const named = await startServer({ args: ["--base-url", "https://short.example"] });
    try {
      const rebound = await fetch(`${named.url}/yourls-api.php?action=version&format=json`, { headers: { Host: "rebound.example" } });
      expect([rebound.status, await rebound.json()]).toEqual([421, { message: expect.stringContaining("not addressed to this service"), errorCode: "421" }]);
      const simple = await fetch(`${named.url}/yourls-api.php?action=version&format=simple`, { headers: { Host: "rebound.example" } });
      expect([simple.status, simple.headers.get("content-type")]).toEqual([421, expect.stringContaining("text/plain")]);
    } finally {
      await named.dispose();
    }
  });
});
