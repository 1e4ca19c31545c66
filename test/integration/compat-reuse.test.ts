// A URL shortened again through a peer API (src/ops/links/reuse.ts; docs/clients.md: Use your
// existing clients): Kutt's `reuse` and YOURLS's answer to a URL shortened twice hand back the
// asker's own active link, by one rule: never a disabled one (it would answer 410), never another
// key's (an admin's client included), and an anonymous create never reuses.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let admin: string;
let creator: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin-tool");
  creator = makeKey(server.dbPath, "laptop", "create");
}, 60_000);
afterAll(() => server.dispose());

/** Kutt's create with reuse (docs/kutt-api.md): the status, and the link's alias from its short URL. */
async function kuttReuse(key: string, target: string): Promise<{ status: number; alias: string }> {
  const res = await fetch(`${server.url}/api/v2/links`, { method: "POST", headers: { "X-API-KEY": key, "Content-Type": "application/json" }, body: JSON.stringify({ target, reuse: true }) });
  const body = await res.json();
  return { status: res.status, alias: new URL(body.link).pathname.slice(1) };
}

/** YOURLS's shorturl in JSON (docs/yourls-api.md): its status and code, and the alias it names. */
async function yourlsShorten(key: string | null, url: string): Promise<{ status: string; code?: string; alias: string }> {
  const params = new URLSearchParams({ action: "shorturl", url, format: "json", ...(key === null ? {} : { signature: key }) });
  const body = await (await fetch(`${server.url}/yourls-api.php?${params}`)).json();
  return { status: body.status, code: body.code, alias: new URL(body.shorturl).pathname.slice(1) };
}

describe("reuse through the peer APIs", () => {
  test("the asker's own active link comes back; once it is disabled, a new one is made", async () => {
    const first = await kuttReuse(creator, "https://example.com/reused");
    expect((await kuttReuse(creator, "https://example.com/reused")).alias).toBe(first.alias);
    expect(await yourlsShorten(creator, "https://example.com/reused")).toEqual({ status: "fail", code: "error:url", alias: first.alias });
    expect((await api(server.url, admin, "PATCH", `/api/links/${first.alias}`, { disabled: true })).status).toBe(200);
    const kutt = await kuttReuse(creator, "https://example.com/reused");
    expect(kutt.status).toBe(201);
    expect(kutt.alias).not.toBe(first.alias);
    // YOURLS now finds the new active link, not the disabled one.
    expect(await yourlsShorten(creator, "https://example.com/reused")).toEqual({ status: "fail", code: "error:url", alias: kutt.alias });
  });

  test("an admin's client is never given another key's link; anonymous creates never reuse", async () => {
    const others = await kuttReuse(creator, "https://example.com/theirs");
    const byAdminKutt = await kuttReuse(admin, "https://example.com/theirs");
    expect(byAdminKutt.status).toBe(201);
    expect(byAdminKutt.alias).not.toBe(others.alias);
    // The admin's own link is the one YOURLS gives the admin back.
    expect(await yourlsShorten(admin, "https://example.com/theirs")).toEqual({ status: "fail", code: "error:url", alias: byAdminKutt.alias });
    const anonymous = await yourlsShorten(null, "https://example.com/theirs");
    expect(anonymous.status).toBe("success");
    expect([others.alias, byAdminKutt.alias]).not.toContain(anonymous.alias);
  });
});
