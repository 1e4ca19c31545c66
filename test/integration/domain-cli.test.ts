// `shortener domain …` (docs/several-domains.md: Managing domains) against a running service's
// database, on SQLite and (SHORTENER_TEST_ENGINE=postgres) PostgreSQL; and the start-up rule
// (Which domain is the default): with --base-url the stored default takes its host, and a start
// whose base URL is another domain's name fails (exit 2) saying what to run.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, cli, madeLink, makeKey } from "../support/admin.ts";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(90_000);

let server: RunningServer;
let admin: string;

beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(server.dbPath, "admin");
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

const domain = (...args: string[]) => cli(["domain", ...args, "--db", server.dbPath]);

test("add, list, set, allow, open, rename, default and remove from the command line; usage errors exit 2, refusals 1", async () => {
  await madeLink(server.url, admin, "cli-made");
  const added = domain("add", "a.example.org", "--robots", "none", "--root-redirect", "https://example.com/home");
  expect([added.code, added.err]).toEqual([0, expect.stringContaining("added a.example.org (the default domain")]);
  expect(domain("add", "b.example.net", "--http").code).toBe(0);
  expect(domain("add", "b.example.net").code).toBe(1);
  expect(domain("add", "not a name").code).toBe(1);
  expect(domain("add", "c.example.net", "--root-redirect", "ftp://x").code).toBe(2); // the flag's own check (a ConfigError)
  expect(domain("add", "c.example.net", "--robots", "some").code).toBe(1);
  expect(domain("frobnicate").code).toBe(2);
  expect(domain("rename", "a.example.org").code).toBe(2);
  expect(domain("allow", "b.example.net").code).toBe(2);
  expect(domain("list", "--move-links-to", "x").code).toBe(2);

  expect(domain("set", "b.example.net", "--https", "--fallback-redirect", "https://example.com/gone").code).toBe(0);
  expect(domain("allow", "b.example.net", "--key", "admin").code).toBe(0);
  expect(domain("allow", "b.example.net", "--key", "nobody").code).toBe(1);
  const listed = domain("list");
  expect(listed.code).toBe(0);
  const rows = listed.out.trim().split("\n").map((l) => l.split(/\s{2,}/));
  expect(rows[0]).toEqual(["NAME", "DEFAULT", "SCHEME", "LINKS", "CREATORS", "ROOT", "NOT FOUND", "FALLBACK", "ROBOTS"]);
  expect(rows[1]).toEqual(["a.example.org", "yes", "https", "1", "everyone", "https://example.com/home", "-", "-", "none"]);
  expect(rows[2]).toEqual(["b.example.net", "-", "https", "0", "users - keys 1", "-", "-", "https://example.com/gone", "-"]);
  expect(domain("open", "b.example.net").code).toBe(0);

  expect(domain("default", "b.example.net").code).toBe(0);
  const renamed = domain("rename", "a.example.org", "old.example.org");
  expect([renamed.code, renamed.err]).toEqual([0, expect.stringContaining("a.example.org is now old.example.org")]);
  const refused = domain("remove", "old.example.org");
  expect([refused.code, refused.err]).toEqual([1, expect.stringContaining("--move-links-to")]);
  expect(domain("remove", "old.example.org", "--move-links-to", "b.example.net").code).toBe(0);
  const after = (await api(server.url, admin, "GET", "/api/domains")).body.domains;
  expect(after.map((d: { name: string; isDefault: boolean; links: number }) => [d.name, d.isDefault, d.links])).toEqual([["b.example.net", true, 1]]);
});

test("the start-up rule: the stored default takes --base-url's host; a base URL that is another domain's name stops the start (exit 2)", async () => {
  // The default is b.example.net (above); c.example.net is another domain.
  expect(domain("add", "c.example.net").code).toBe(0);
  await server.stop();
  const refused = Bun.spawn([...serverCommand(), "--port", "0", "--host", "127.0.0.1", "--db", server.dbPath, "--base-url", "https://c.example.net"], {
    cwd: server.dir, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe",
  });
  const killer = setTimeout(() => refused.kill(), 60_000); // a start that does not fail is the test's failure, not a hang
  const code = await refused.exited;
  clearTimeout(killer);
  const said = await new Response(refused.stderr).text();
  expect(code).toBe(2);
  expect(said).toContain("shortener domain default c.example.net");

  const again = await startServer({ dir: server.dir, args: ["--base-url", "https://short.example.org"] });
  try {
    expect(again.output()).toContain("the default domain b.example.net is now named short.example.org");
    const listed = cli(["domain", "list", "--db", again.dbPath]).out;
    expect(listed).toContain("short.example.org");
    expect(listed).not.toContain("b.example.net");
    // Its link moved with it: answered under the new name.
    const res = await fetch(`${again.url}/cli-made`, { headers: { host: "short.example.org" }, redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([302, "https://example.com/cli-made"]);
  } finally {
    await again.stop();
  }
});
