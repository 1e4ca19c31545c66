// What the image says about where it came from: the commit, and the time every file and the
// config are stamped with. Both come from the checkout, never the clock, so that building twice
// gives the same digests.

import { git } from "../build-stamp.ts";

/** The full commit of HEAD, or "unknown" outside a git checkout. */
export function revision(root: string): string {
  return git(root, ["rev-parse", "HEAD"]) ?? "unknown";
}

/** SOURCE_DATE_EPOCH when set (the reproducible-builds convention), else the commit's time. */
export function sourceDateEpoch(root: string, env: Record<string, string | undefined> = process.env): number {
  const given = env.SOURCE_DATE_EPOCH;
  if (given !== undefined) {
    if (!/^\d+$/.test(given)) throw new Error(`SOURCE_DATE_EPOCH=${given} is not a number of seconds`);
    return Number(given);
  }
  const committed = git(root, ["log", "-1", "--format=%ct", "HEAD"]);
  if (committed === null || !/^\d+$/.test(committed)) throw new Error("not a git checkout: set SOURCE_DATE_EPOCH");
  return Number(committed);
}
