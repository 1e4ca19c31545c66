// `shortener healthcheck`: exit 0 when the service on this machine answers /health with 200, 1
// otherwise. For a container's HEALTHCHECK: the image has no curl or wget, only this binary.
// It asks the port and address the service was given (--port/--host or SHORTENER_PORT/_HOST,
// which a container's environment passes to both), and opens no database.

import type { Config } from "../config.ts";

/** Long enough for a busy service, short enough to fail before a runtime's own check timeout (30 s). */
const TIMEOUT_MS = 5_000;

export async function runHealthcheck(config: Config): Promise<number> {
  const url = healthUrl(config);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" });
    const body = await res.text();
    if (res.status === 200) return 0;
    console.error(`shortener healthcheck: ${url} answered ${res.status}: ${body.slice(0, 200)}`);
  } catch (err) {
    console.error(`shortener healthcheck: ${url}: ${reason(err)}`);
  }
  return 1;
}

/** Bun's own words for a refused connection ask whether "the computer" can reach the URL; say what it means. */
function reason(err: unknown): string {
  const code = (err as { code?: string } | null)?.code;
  if (code === "ConnectionRefused" || code === "ECONNREFUSED") return "nothing is listening there (connection refused)";
  if (err instanceof Error && err.name === "TimeoutError") return `no answer within ${TIMEOUT_MS / 1000} s`;
  return err instanceof Error ? err.message : String(err);
}

/** A service listening on every address is asked on loopback; one on a given address, there. */
export function healthUrl(config: Pick<Config, "host" | "port">): string {
  let host = config.host.replace(/^\[(.*)\]$/, "$1");
  if (host === "0.0.0.0" || host === "") host = "127.0.0.1";
  if (host === "::") host = "::1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}/health`;
}
