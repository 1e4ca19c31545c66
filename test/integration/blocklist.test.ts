// --blocklist against a real server: refused creates and edits, existing links blocked (410) and
// unblocked when the file is reloaded by SIGHUP or by a change, a bad file at start and on reload.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";

let server: RunningServer;
let key: string;
let listPath: string;

beforeAll(async () => {
  const first = await startServer(); // to get a folder; the list lives beside the database
  listPath = join(first.dir, "blocklist.txt");
  await first.stop();
  writeFileSync(listPath, "# test list\nbit.ly\n/[?&]next=https?:/\n");
  server = await startServer({ dir: first.dir, args: ["--blocklist", listPath, "--create-rate-limit", "0", "--allow-schemes", "intent"] });
  key = makeKey(server.dbPath, "owner");
});
afterAll(() => server.dispose());

const becomesTrue = (check: () => Promise<boolean>, ms = 3000) => eventually(check, (ok) => ok, ms, 50);

test("a create or edit to a blocked destination is 400 url_blocked", async () => {
  for (const url of ["https://bit.ly/abc", "https://sub.bit.ly/x", "https://ok.example/?next=https://evil.example"]) {
    const r = await createLink(server.url, { url });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "url_blocked", field: "url" });
  }
  expect((await createLink(server.url, { url: "https://example.com/", custom_url: "will-edit" })).status).toBe(201);
  expect((await api(server.url, key, "PATCH", "/api/links/will-edit", { url: "https://bit.ly/x" })).body).toMatchObject({ code: "url_blocked", field: "url" });
  expect(server.output()).toMatch(/^blocklist .*blocklist\.txt: 1 domains, 1 patterns/m);
});

test("SIGHUP after adding a domain: existing links to it answer 410 blocked; removing it restores them", async () => {
  expect((await createLink(server.url, { url: "https://phish.example/login", custom_url: "later-bad" })).status).toBe(201);
  expect((await fetch(`${server.url}/later-bad`, { redirect: "manual" })).status).toBe(302);
  writeFileSync(listPath, "bit.ly\nphish.example\n");
  server.proc.kill("SIGHUP");
  expect(await becomesTrue(async () => (await fetch(`${server.url}/later-bad`, { redirect: "manual" })).status === 410)).toBe(true);
  const page = await fetch(`${server.url}/later-bad`, { headers: { "accept-language": "es" } });
  expect(await page.text()).toContain("Este enlace está bloqueado");
  expect((await api(server.url, key, "GET", "/api/links/later-bad")).body.data.status).toBe("blocked");
  expect((await api(server.url, key, "GET", "/api/links?status=blocked")).body.data.links.map((l: { id: string }) => l.id)).toEqual(["later-bad"]);
  expect((await fetch(`${server.url}/will-edit`, { redirect: "manual" })).status).toBe(302);

  writeFileSync(listPath, "bit.ly\n");
  server.proc.kill("SIGHUP");
  expect(await becomesTrue(async () => (await fetch(`${server.url}/later-bad`, { redirect: "manual" })).status === 302)).toBe(true);
});

test("a reload blocks a link whose card image or intent's web fallback it lists, not only its destinations (docs/sharing.md: Preview cards)", async () => {
  const fallback = encodeURIComponent("https://shady.example/get");
  const made = await Promise.all([
    api(server.url, key, "POST", "/api/create", { url: "https://fine.example/", custom_url: "shady-card", cardTitle: "Hi", cardImage: "https://img.shady.example/c.png" }),
    api(server.url, key, "POST", "/api/create", { url: `intent://scan/#Intent;package=org.example.app;S.browser_fallback_url=${fallback};end`, custom_url: "shady-intent" }),
  ]);
  expect(made.map((r) => r.status)).toEqual([201, 201]);
  const statuses = () => Promise.all(["shady-card", "shady-intent"].map(async (id) => (await fetch(`${server.url}/${id}`, { redirect: "manual" })).status));
  expect(await statuses()).toEqual([302, 302]);
  writeFileSync(listPath, "bit.ly\nshady.example\n");
  server.proc.kill("SIGHUP");
  expect(await becomesTrue(async () => (await statuses()).every((status) => status === 410))).toBe(true);
  writeFileSync(listPath, "bit.ly\n");
  server.proc.kill("SIGHUP");
  expect(await becomesTrue(async () => (await statuses()).every((status) => status === 302))).toBe(true);
}, 15_000);

test("a changed file is picked up without a signal (modification time)", async () => {
  expect((await createLink(server.url, { url: "https://drift.example/", custom_url: "drifter" })).status).toBe(201);
  writeFileSync(listPath, "bit.ly\ndrift.example\n");
  expect(await becomesTrue(async () => (await fetch(`${server.url}/drifter`, { redirect: "manual" })).status === 410, 8000)).toBe(true);
}, 15_000);

test("a broken file on reload keeps the previous list and says so", async () => {
  writeFileSync(listPath, "bit.ly\ndrift.example\n/(broken/\n");
  server.proc.kill("SIGHUP");
  expect(await becomesTrue(async () => server.output().includes("blocklist reload failed; keeping the previous list"))).toBe(true);
  expect((await fetch(`${server.url}/drifter`, { redirect: "manual" })).status).toBe(410);
  expect((await createLink(server.url, { url: "https://bit.ly/still" })).status).toBe(400);
});

test("a broken or missing file at start: exit 2 naming --blocklist", () => {
  const broken = join(server.dir, "broken.txt");
  writeFileSync(broken, "fine.example\nnot a domain\n");
  for (const path of [broken, join(server.dir, "missing.txt")]) {
    const r = cli(["--port", "0", "--host", "127.0.0.1", "--db", join(server.dir, "other.db"), "--blocklist", path]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--blocklist");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  }
});
