// The operations in process (src/ops): a temp SQLite file opened through openStorage, the actors
// that ask (nobody, keys of both scopes, a member, an admin user, the operator), and a log whose
// management lines the tests read.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../src/db/open-storage.ts";
import type { Storage } from "../../src/db/storage.ts";
import { OPERATOR, type Principal } from "../../src/auth/policy.ts";
import type { User } from "../../src/auth/users.ts";
import type { Fields, Logger } from "../../src/log.ts";
import type { ErrorCode } from "../../src/errors.ts";

export type Opened = { storage: Storage; path: string; dispose: () => Promise<void> };

export async function tempStorage(): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), "shortener-ops-"));
  const path = join(dir, "s.db");
  const storage = await openStorage(path, { busyTimeoutMs: 5000, password: null });
  return {
    storage,
    path,
    dispose: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A log that keeps its lines: [message, fields]. */
export function keptLog(): Logger & { lines: [string, Fields | undefined][]; actions: () => unknown[] } {
  const lines: [string, Fields | undefined][] = [];
  return {
    lines,
    info: (msg, fields) => lines.push([msg, fields]),
    error: (msg, fields) => lines.push([msg, fields]),
    actions: () => lines.filter(([m]) => m === "management").map(([, f]) => f),
  };
}

export const adminKey: Principal = { keyId: 1, user: null, name: "ops-admin", scope: "admin", via: "key" };
export const createKey: Principal = { keyId: 2, user: null, name: "ops-create", scope: "create", via: "key" };

/** A principal for a stored user, as a session of theirs would be. */
export function userActor(user: User): Principal {
  return { keyId: null, user, name: user.name, scope: user.admin ? "admin" : "create", via: "session" };
}

/** Every actor that may not manage the instance (nobody: 401's code; the others: admin_only). */
export const refusedActors: [string, Principal | null, ErrorCode][] = [
  ["nobody", null, "auth_required"],
  ["a create key", createKey, "admin_only"],
];

/** Every actor that may: an admin key and the operator of the command line. */
export const allowedActors: [string, Principal][] = [
  ["an admin key", adminKey],
  ["the operator", OPERATOR],
];
