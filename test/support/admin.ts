// Helpers for the management tests: the `shortener` command line against a server's database, and
// API calls with a bearer key.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverCommand } from "./server.ts";
import { eventually } from "./eventually.ts";

export type CliResult = { code: number | null; out: string; err: string };

/**
 * Runs the service's executable with args in a folder of its own (so no ./shortener.db is left
 * behind), or in `options.cwd`; `options.as` goes before the command (e.g. setpriv to another user).
 */
export function cli(args: string[], env: Record<string, string> = {}, options: { cwd?: string; as?: string[] } = {}): CliResult {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "shortener-cli-"));
  try {
    const proc = Bun.spawnSync([...(options.as ?? []), ...serverCommand(), ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
    return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
  } finally {
    if (options.cwd === undefined) rmSync(cwd, { recursive: true, force: true });
  }
}

/** `shortener key create NAME --scope S --db PATH`: the new key (stdout holds nothing else). */
export function makeKey(dbPath: string, name: string, scope: "admin" | "create" = "admin"): string {
  const r = cli(["key", "create", name, "--scope", scope, "--db", dbPath]);
  if (r.code !== 0) throw new Error(`key create failed (${r.code}): ${r.err}`);
  return r.out.trim();
}

export type ApiResult = { status: number; headers: Headers; body: any };

/** One API call; `key` null sends no Authorization header; a non-string body is sent as JSON. */
export async function api(base: string, key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult> {
  const h: Record<string, string> = { ...headers };
  if (key !== null) h.authorization = `Bearer ${key}`;
  let payload: BodyInit | undefined;
  if (typeof body === "string" || body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h["content-type"] ??= "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers: h, body: payload, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (an export's CSV, an HTML page): the text itself
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A link made through the API with a key (alias `id`, destination https://example.com/<id>); throws unless 201. */
export async function madeLink(base: string, key: string, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await api(base, key, "POST", "/api/create", { url: `https://example.com/${id}`, custom_url: id, ...extra });
  if (r.status !== 201) throw new Error(`create ${id}: ${JSON.stringify(r.body)}`);
}

/** POST /api/imports with `body`, then GET /api/imports/{id} until it is no longer running (10 s at most): the job. */
export async function importedThroughApi(base: string, key: string, body: Record<string, unknown>): Promise<{ started: ApiResult; job: any }> {
  const started = await api(base, key, "POST", "/api/imports", body);
  const first = started.body.data;
  if (first?.state !== "running") return { started, job: first };
  const job = await eventually(async () => (await api(base, key, "GET", `/api/imports/${first.id}`)).body.data, (j) => j?.state !== "running", 10_000, 50);
  return { started, job };
}
