// Memory at rest: the binary alone in an empty folder (a new database), idle for 5 s after it
// started, as a homelab runs it most of the time.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryMiB, startListening } from "../lib/processes.ts";

export async function memoryAtRest(bin: string): Promise<{ rss: number; peak: number; anon: number }> {
  const dir = mkdtempSync(join(tmpdir(), "shortener-rest-"));
  const served = await startListening("at-rest", [bin, "--port", "0", "--host", "127.0.0.1"], { cwd: dir });
  try {
    await Bun.sleep(5_000);
    return memoryMiB(served.pid);
  } finally {
    await served.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
