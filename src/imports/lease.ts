// One run of an import at a time, whichever process runs it (a command line next to the
// dashboard's, two instances): two at once would both think a link new and, under rename, make it
// twice. The run holds a lease in the import's cursors, renewed with every page; a lease that ran
// out, or whose process on this machine is gone (a kill -9), is taken over.

import { hostname } from "node:os";
import type { ImportTarget } from "./target.ts";

const SCOPE = "running";
/** A page takes well under this; a run that stops renewing for this long is taken for dead. */
const LEASE_MS = 120_000;
/** Renewed at most this often (each renewal is a write). */
const RENEW_MS = 10_000;

type Holder = { until: number; host: string; pid: number; token: string };

export type Lease = { renew(): Promise<void>; release(): Promise<void> };

/** The lease, or the reason it is held elsewhere. */
export async function takeLease(target: ImportTarget, source: string, now: () => number = Date.now): Promise<Lease | { heldBy: string }> {
  const mine: Holder = { until: 0, host: hostname(), pid: process.pid, token: crypto.randomUUID() };
  let held: string | null = null;
  let renewedAt = 0;
  const write = async (expected: string | null): Promise<boolean> => {
    const next = JSON.stringify({ ...mine, until: now() + LEASE_MS });
    if (!(await target.swapCursor(source, SCOPE, expected, next))) return false;
    held = next;
    renewedAt = now();
    return true;
  };
  const current = await target.cursor(source, SCOPE);
  if (current !== null) {
    const other = parseHolder(current);
    if (other !== null && other.until > now() && !(other.host === mine.host && !alive(other.pid))) {
      return { heldBy: `process ${other.pid} on ${other.host}, until ${new Date(other.until).toISOString()} unless it renews` };
    }
  }
  if (!(await write(current))) return { heldBy: "another run that started at the same moment" };
  return {
    async renew() {
      if (now() - renewedAt < RENEW_MS) return;
      if (!(await write(held))) throw new Error("another run took over this import (this one had stopped renewing its lease)");
    },
    async release() {
      if (held !== null) await target.swapCursor(source, SCOPE, held, null);
    },
  };
}

function parseHolder(text: string): Holder | null {
  try {
    return JSON.parse(text) as Holder;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
