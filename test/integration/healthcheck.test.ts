// `shortener healthcheck`: what a container's HEALTHCHECK runs (the image has no curl). Exit 0 when
// the service at --port/--host (or SHORTENER_PORT/SHORTENER_HOST, as a container passes them)
// answers /health with 200; 1 with one line on stderr when it does not answer or answers otherwise.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";

type Result = { code: number; out: string; err: string };

// Async, not spawnSync: one case answers from a server in this very process.
async function healthcheck(args: string[], env: Record<string, string> = {}): Promise<Result> {
  const cwd = mkdtempSync(join(tmpdir(), "shortener-healthcheck-"));
  try {
    const proc = Bun.spawn([...serverCommand(), "healthcheck", ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out, err };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe("shortener healthcheck", () => {
  let service: RunningServer;
  beforeAll(async () => {
    service = await startServer();
  });
  afterAll(async () => {
    await service.dispose();
  });

  test("a running service: exit 0 and nothing printed, by flag and by environment", async () => {
    const byFlag = await healthcheck(["--port", String(service.port), "--host", "127.0.0.1"]);
    expect(byFlag).toEqual({ code: 0, out: "", err: "" });
    // A service listening on every address (the default host) is asked on loopback.
    const byEnv = await healthcheck([], { SHORTENER_PORT: String(service.port) });
    expect(byEnv).toEqual({ code: 0, out: "", err: "" });
  });

  test("nothing listening: exit 1 with one line naming the address", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const r = await healthcheck(["--port", String(port)]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain(`http://127.0.0.1:${port}/health: nothing is listening there (connection refused)`);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  test("an answer other than 200 (a service whose storage is down answers 503): exit 1, naming the status", async () => {
    const sick = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ status: "unavailable" }, { status: 503 }) });
    try {
      const r = await healthcheck(["--port", String(sick.port)]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("503");
    } finally {
      sick.stop(true);
    }
  });

  test("a bad setting is unhealthy (1), not 2: Docker reserves a health check's exit code 2", async () => {
    const r = await healthcheck(["--port", "nope"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("--port");
    const fromEnv = await healthcheck([], { SHORTENER_PORT: "nope" });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.err).toContain("SHORTENER_PORT");
  });
});
