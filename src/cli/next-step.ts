// The start-up log's last line on a new instance: what to do next
// (docs/configuration.md: The first start). Only while no key and no user exists, so that an
// established instance's log stays quiet.

import type { KeyStore } from "../auth/keys.ts";
import type { UserRepository } from "../auth/users.ts";
import { engineOf } from "../db/storage.ts";
import { resolve } from "node:path";
import { SYSTEM_DATABASE } from "./database.ts";

/** Nobody can manage links yet: no key (revoked ones count: someone had one), no user, no admin key from a credential. */
export async function isNewInstance(stores: { keys: Pick<KeyStore, "list">; users: Pick<UserRepository, "list"> }, credentialKey: boolean): Promise<boolean> {
  return !credentialKey && (await stores.keys.list()).length === 0 && (await stores.users.list()).length === 0;
}

export type Listening = {
  baseUrl: string | null;
  /** The address listened on; every address is reached on this machine as localhost. */
  host: string;
  port: number;
  /** The service's database (a path as given, or a postgres:// URL). */
  database: string;
  /** People sign in through a provider or a proxy (--oidc-issuer, --auth-header). */
  signIn: boolean;
};

/** "next: shortener key create NAME, then open http://localhost:8080/links and paste the key". */
export function nextStep(at: Listening): string {
  const dashboard = `${at.baseUrl ?? `http://${browsable(at.host)}:${at.port}`}/links`;
  const command = `shortener key create NAME${databaseFlag(at.database)}`;
  if (at.signIn) return `next: open ${dashboard} and sign in (or make a key: ${command})`;
  return `next: ${command}, then open ${dashboard} and paste the key`;
}

function browsable(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "localhost";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * --db for the command, unless a command finds this database without it from any folder (the
 * system's); a PostgreSQL URL loses its password (the command reads it as the service does).
 */
function databaseFlag(database: string): string {
  if (engineOf(database) === "postgres") {
    const url = URL.parse(database);
    if (url === null) return " --db postgres://…";
    url.password = "";
    return ` --db ${quoted(url.href)}`;
  }
  const path = resolve(database);
  return path === SYSTEM_DATABASE ? "" : ` --db ${quoted(path)}`;
}

/** A word the shell passes as it is: quoted when it holds anything but plain path characters. */
function quoted(word: string): string {
  return /^[A-Za-z0-9_.,:\/@%+=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
