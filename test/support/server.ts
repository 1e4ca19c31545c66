// Starts the real service as a child process on a free port with its own temp SQLite file.
// SHORTENER_BIN=/path/to/shortener runs the compiled binary instead of `bun src/main.ts`,
// so the same integration and browser suites exercise both.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const REPO_ROOT = resolve(import.meta.dir, "../..");

export type RunningServer = {
  url: string;
  port: number;
  dir: string;
  dbPath: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop: () => Promise<number>;
  /** Stop, then remove the temp folder. */
  dispose: () => Promise<void>;
};

export type StartOptions = {
  args?: string[];
  env?: Record<string, string>;
  /** Reuse a folder (and so its database) from an earlier server. */
  dir?: string;
  cwd?: string;
};

export function serverCommand(): string[] {
  const bin = process.env.SHORTENER_BIN;
  return bin ? [bin] : [process.execPath, join(REPO_ROOT, "src/main.ts")];
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "shortener-test-"));
  const dbPath = join(dir, "shortener.db");
  const args = ["--port", "0", "--host", "127.0.0.1", "--db", dbPath, ...(options.args ?? [])];
  const proc = Bun.spawn([...serverCommand(), ...args], {
    cwd: options.cwd ?? dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  void pump(proc.stdout);
  void pump(proc.stderr);

  const deadline = Date.now() + 15_000;
  let port = 0;
  while (Date.now() < deadline) {
    const m = /listening on http:\/\/[^\s:]+:(\d+)/.exec(text);
    if (m) {
      port = Number(m[1]);
      break;
    }
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${text}`);
    await Bun.sleep(20);
  }
  if (!port) {
    proc.kill("SIGKILL");
    throw new Error(`server did not start within 15 s:\n${text}`);
  }
  const stop = async () => {
    if (proc.exitCode === null) proc.kill("SIGTERM");
    return await proc.exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    dbPath,
    proc,
    output: () => text,
    stop,
    dispose: async () => {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST /api/create as multipart/form-data, the spec's content type. */
export async function createLink(base: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${base}/api/create`, { method: "POST", body: form, headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
