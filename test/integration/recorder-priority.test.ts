// The recorder thread yields the CPU to the click thread (SCHED_IDLE) only where it could be put back
// to normal priority when it falls behind: with CAP_SYS_NICE (root), or with RLIMIT_NICE >= 20
// (LimitNICE=+0). Checked on the real process, by reading each thread's policy and nice from /proc.

import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startListening, type Served } from "../../scripts/lib/processes.ts";
import { createLink, serverCommand } from "../support/server.ts";
import { drained } from "../support/clicks.ts";

const NOBODY = "65534";
const AS_NOBODY = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
const isRoot = process.getuid?.() === 0;
// Switching users needs root; the unprivileged user must also be able to reach the program.
const nobodyCanRun = isRoot && Bun.spawnSync([...AS_NOBODY, ...serverCommand(), "--version"]).exitCode === 0;

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

/** Scheduling policy and nice value of each thread of pid, by thread name (a name held twice throws). */
function threads(pid: number): Map<string, { policy: number; nice: number }> {
  const out = new Map<string, { policy: number; nice: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    // Fields from the 3rd on follow the name, which is in parentheses and may hold spaces:
    // nice is field 19, policy field 41.
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (out.has(name) && name === "recorder") throw new Error(`two threads named ${name}`);
    out.set(name, { nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) });
  }
  return out;
}

async function serve(prefix: string[]): Promise<{ served: Served; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "shortener-priority-"));
  chmodSync(dir, 0o777); // writable by the unprivileged user too
  const cmd = [...prefix, ...serverCommand(), "--port", "0", "--host", "127.0.0.1", "--db", join(dir, "s.db")];
  const served = await startListening("server", cmd, { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir } });
  return { served, dir };
}

describe("recorder thread priority", () => {
  // CI runs as root; elsewhere these are skipped.
  test.skipIf(!isRoot)("as root: the recorder thread runs at SCHED_IDLE, the click thread at normal priority", async () => {
    const { served, dir } = await serve([]);
    try {
      const all = threads(served.pid);
      expect(all.get("recorder")).toEqual({ policy: SCHED_IDLE, nice: 0 });
      expect(all.get(readFileSync(`/proc/${served.pid}/comm`, "utf8").trim())).toEqual({ policy: SCHED_OTHER, nice: 0 });
      expect(served.output()).toContain("recorder thread at low CPU priority");

      // After writing clicks (it is raised only when behind, or when a create waits for the write
      // lock), the thread is idle-class again.
      const created = await createLink(served.url, { url: "https://example.org/priority" });
      const id = String(created.body.data.shortUrl).split("/").pop();
      for (let i = 0; i < 5; i++) expect((await fetch(`${served.url}/${id}`, { redirect: "manual" })).status).toBe(302);
      expect((await drained(served.url)).written).toBe(5);
      expect(threads(served.pid).get("recorder")).toEqual({ policy: SCHED_IDLE, nice: 0 });
    } finally {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The unit's LimitNICE=+0 (RLIMIT_NICE 20) is the other way in; raising a hard limit needs
  // CAP_SYS_RESOURCE, which these machines' root lacks, so that path is covered by the unit test of
  // mayRaiseToNormal.
  test.skipIf(!nobodyCanRun).each([
    ["with the default nice limit", [], { policy: SCHED_OTHER, nice: 0 }, "recorder thread at normal CPU priority"],
    ["with CAP_SYS_NICE", ["--inh-caps=+sys_nice", "--ambient-caps=+sys_nice"], { policy: SCHED_IDLE, nice: 0 }, "recorder thread at low CPU priority"],
  ] as const)("an ordinary user %s: the recorder thread policy and the start-up line say so", async (_, caps, expected, line) => {
    const { served, dir } = await serve([...AS_NOBODY, ...caps]);
    try {
      expect(threads(served.pid).get("recorder")).toEqual(expected);
      expect(served.output()).toContain(line);
    } finally {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
