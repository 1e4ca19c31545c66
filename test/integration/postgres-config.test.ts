// Pointing the service at PostgreSQL: the password from systemd's credential when the URL has
// none, never printed; URLs that cannot work refused at start with one line (with the PostgreSQL
// suites: SHORTENER_TEST_ENGINE=postgres).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedPostgres } from "../support/postgres.ts";
import { createLink, onPostgres, startServer } from "../support/server.ts";
import { cli } from "../support/admin.ts";

let url: string;
let password: string;
let withoutPassword: string;
let credentials: string;
beforeAll(async () => {
  if (!onPostgres) return;
  url = await (await sharedPostgres()).createDatabase();
  const parsed = new URL(url);
  password = parsed.password;
  parsed.password = "";
  withoutPassword = parsed.toString();
  credentials = mkdtempSync(join(tmpdir(), "shortener-credentials-"));
  writeFileSync(join(credentials, "db-password"), `${password}\n`);
});
afterAll(async () => {
  if (!onPostgres) return;
  rmSync(credentials, { recursive: true, force: true });
  await (await sharedPostgres()).dropDatabase(url);
});

describe.skipIf(!onPostgres)("--db postgres://…", () => {
  test("a URL without a password takes it from $CREDENTIALS_DIRECTORY/db-password; neither is printed", async () => {
    const server = await startServer({ database: withoutPassword, env: { CREDENTIALS_DIRECTORY: credentials } });
    try {
      expect((await createLink(server.url, { url: "https://example.com/credential" })).status).toBe(201);
      expect(server.output()).toContain(`database ${withoutPassword}`);
      expect(server.output()).not.toContain(password);
      const key = cli(["key", "create", "from-credential", "--db", withoutPassword], { CREDENTIALS_DIRECTORY: credentials });
      expect(key.code).toBe(0);
      expect(key.err).not.toContain(password);
    } finally {
      await server.dispose();
    }
  });

  test("without the credential the server refuses the login: one line naming the database, exit 1", () => {
    const r = cli(["--port", "0", "--db", withoutPassword]);
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toContain(`cannot open database ${withoutPassword}`);
  });

  test("a wrong password in the URL: exit 1, and the log shows *** in its place", () => {
    const wrong = new URL(url);
    wrong.password = "not-the-password";
    const r = cli(["--port", "0", "--db", wrong.toString()]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("postgres://postgres:***@");
    expect(r.err).not.toContain("not-the-password");
  });

  test("URLs that cannot name a database are configuration errors (exit 2)", () => {
    for (const bad of ["postgres://127.0.0.1", "postgres://127.0.0.1/", "postgres://:5432/x"]) {
      const r = cli(["--port", "0", "--db", bad]);
      expect({ bad, code: r.code }).toEqual({ bad, code: 2 });
      expect(r.err).toContain("--db");
    }
  });
});
