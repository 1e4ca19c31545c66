// Root against the service's database (src/db/sqlite/open.ts): what root makes in a folder that
// belongs to another user (a systemd DynamicUser's state folder) belongs to that user too, so the
// service can still write. Needs root to chown; skipped otherwise.

import { afterAll, expect, test } from "bun:test";
import { chownSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/sqlite/open.ts";

const SERVICE_UID = 61656; // what systemd picks for a DynamicUser: any uid that is not root's
const folder = mkdtempSync(join(tmpdir(), "shortener-owner-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const owner = (path: string) => `${statSync(path).uid}:${statSync(path).gid}`;

test.skipIf(process.getuid?.() !== 0)("as root: a new database, and its -wal and -shm, belong to the folder's owner", () => {
  chownSync(folder, SERVICE_UID, SERVICE_UID);
  const path = join(folder, "shortener.db");
  const db = openDatabase(path);
  try {
    // Open, the connection keeps its -wal and -shm (the schema was just written through them).
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(owner(file)).toBe(`${SERVICE_UID}:${SERVICE_UID}`);
  } finally {
    db.close();
  }
  // Opened again by root, it stays the service's.
  openDatabase(path).close();
  expect(owner(path)).toBe(`${SERVICE_UID}:${SERVICE_UID}`);
});

test.skipIf(process.getuid?.() !== 0)("as root in root's own folder: nothing changes hands", () => {
  const own = mkdtempSync(join(folder, "root-"));
  chownSync(own, 0, 0);
  const path = join(own, "shortener.db");
  openDatabase(path).close();
  expect(owner(path)).toBe("0:0");
});
