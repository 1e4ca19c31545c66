// Who gets a link's QR code and in what state (docs/sharing.md: QR codes by URL), against the real
// service on either engine: under --stats-access key only who may read the link's statistics (a
// 404 like an unknown link for anyone else); a disabled, scheduled or used-up link's code served
// with its Link-Status; a blocked link 410; a deleted one 404; on a short domain, and on the main
// domain with ?domain=, the code holds the short domain's URL.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, cli, madeLink, makeKey } from "../support/admin.ts";
import { onHost, serverWithDomains } from "../support/domains.ts";
import { eventually } from "../support/eventually.ts";
import { decodePng } from "../support/qr-decode.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
});

async function qrText(res: Response): Promise<string | null> {
  expect(res.status).toBe(200);
  return decodePng(new Uint8Array(await res.arrayBuffer())).text;
}

describe("--stats-access key", () => {
  let server: RunningServer;
  let owner: string;
  let other: string;
  let admin: string;
  beforeAll(async () => {
    server = await startServer({ args: ["--stats-access", "key", "--create-rate-limit", "0"] });
    servers.push(server);
    owner = makeKey(server.dbPath, "owner", "create");
    other = makeKey(server.dbPath, "other", "create");
    admin = makeKey(server.dbPath, "admin");
    await madeLink(server.url, owner, "mine");
  }, 60_000);

  test("without a key: 404 as for an unknown link; another creator's key too", async () => {
    const none = await fetch(`${server.url}/mine/qr`);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual(await (await fetch(`${server.url}/nope/qr`)).json().then((b) => ({ ...b, error: b.error.replace("nope", "mine") })));
    expect((await fetch(`${server.url}/mine/qr`, { headers: { Authorization: `Bearer ${other}` } })).status).toBe(404);
  });

  test("with the owner's or an admin's key: the code, cached privately", async () => {
    for (const key of [owner, admin]) {
      const res = await fetch(`${server.url}/mine/qr`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
      expect(await qrText(res)).toBe(`${server.url}/mine`);
    }
  });

  test("with the dashboard's session (its <img> on the main domain): the code", async () => {
    const signIn = await api(server.url, null, "POST", "/api/session", { key: owner });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    expect(await qrText(await fetch(`${server.url}/mine/qr`, { headers: { cookie } }))).toBe(`${server.url}/mine`);
  });

  test("the owner's key once revoked: refused (401) and no code, as the stats API refuses it", async () => {
    const revoked = makeKey(server.dbPath, "owner-revoked", "create");
    await madeLink(server.url, revoked, "was-mine");
    expect((await fetch(`${server.url}/was-mine/qr`, { headers: { Authorization: `Bearer ${revoked}` } })).status).toBe(200);
    cli(["key", "revoke", "owner-revoked", "--db", server.dbPath]);
    const res = await fetch(`${server.url}/was-mine/qr`, { headers: { Authorization: `Bearer ${revoked}` } });
    expect(res.status).toBe((await fetch(`${server.url}/api/stats?id=was-mine`, { headers: { Authorization: `Bearer ${revoked}` } })).status);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  test("a key that is no key: refused (401), not looked up", async () => {
    const res = await fetch(`${server.url}/mine/qr`, { headers: { Authorization: "Bearer not-a-key" } });
    expect(res.status).toBe(401);
  });
});

describe("a link's state", () => {
  let server: RunningServer;
  let key: string;
  let listPath: string;
  beforeAll(async () => {
    const first = await startServer();
    listPath = join(first.dir, "blocklist.txt");
    await first.stop();
    writeFileSync(listPath, "bit.ly\n");
    server = await startServer({ dir: first.dir, args: ["--blocklist", listPath, "--create-rate-limit", "0"] });
    servers.push(server);
    key = makeKey(server.dbPath, "admin");
    for (const id of ["off", "later", "once", "gone", "bad"]) await madeLink(server.url, key, id);
  }, 60_000);

  const linkStatus = async (id: string) => {
    const res = await fetch(`${server.url}/${id}/qr`);
    expect(await qrText(res)).toBe(`${server.url}/${id}`);
    return res.headers.get("link-status");
  };

  test("disabled, scheduled, its clicks used up: the code still, with Link-Status", async () => {
    expect((await api(server.url, key, "PATCH", "/api/links/off", { disabled: true })).status).toBe(200);
    expect(await linkStatus("off")).toBe("disabled");
    expect((await api(server.url, key, "PATCH", "/api/links/later", { validFrom: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
    expect(await linkStatus("later")).toBe("scheduled");
    expect((await api(server.url, key, "PATCH", "/api/links/once", { maxClicks: 1 })).status).toBe(200);
    expect((await fetch(`${server.url}/once`, { redirect: "manual" })).status).toBe(302);
    expect(await linkStatus("once")).toBe("limit_reached");
  });

  test("deleted: 404", async () => {
    expect((await api(server.url, key, "DELETE", "/api/links/gone")).status).toBe(200);
    const res = await fetch(`${server.url}/gone/qr`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: "not_found" });
  });

  test("blocked by the --blocklist: 410 link_blocked, no picture", async () => {
    writeFileSync(listPath, "bit.ly\nexample.com\n");
    server.proc.kill("SIGHUP");
    const blocked = await eventually(async () => (await fetch(`${server.url}/bad`, { redirect: "manual" })).status, (s) => s === 410, 5000, 50);
    expect(blocked).toBe(410);
    const res = await fetch(`${server.url}/bad/qr`);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toMatchObject({ success: false, code: "link_blocked" });
  });
});

describe("several domains", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serverWithDomains(
      [{ name: "a.example", isDefault: true }, { name: "b.example", https: false }],
      [
        { url: "https://one.example.org/", alias: "same" },
        { url: "https://two.example.org/", alias: "same", domain: "b.example" },
      ],
    );
    servers.push(server);
  }, 60_000);

  test("on the short domain's host: its link, its URL", async () => {
    expect(await qrText(await onHost(server, "b.example", "/same/qr"))).toBe("http://b.example/same");
  });

  test("on the main domain with ?domain=: the short domain's URL; without, the main domain's link", async () => {
    expect(await qrText(await onHost(server, "a.example", "/same/qr?domain=b.example"))).toBe("http://b.example/same");
    const main = await qrText(await onHost(server, "a.example", "/same/qr"));
    expect(main).toEndWith("/same");
    expect(main).not.toContain("b.example");
  });

  test("an unknown ?domain=: 400 domain_unknown", async () => {
    const res = await onHost(server, "a.example", "/same/qr?domain=c.example");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "domain_unknown", field: "domain" });
  });
});
