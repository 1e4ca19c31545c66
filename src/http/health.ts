// GET /health: for systemd watchdogs, uptime monitors and reverse-proxy health checks.

import type { Storage } from "../db/storage.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { json } from "./responses.ts";

export type HealthDeps = { storage: Pick<Storage, "ping">; recorder: Pick<ClickRecorder, "stats">; version: string };

/** 200 when the database answers and the visit writer is keeping up; 503 otherwise. */
export async function handleHealth(deps: HealthDeps): Promise<Response> {
  const visits = deps.recorder.stats();
  let db = "ok";
  try {
    await deps.storage.ping();
    if (visits.lastError !== null) db = `write failing: ${visits.lastError}`;
  } catch (err) {
    db = `unreadable: ${err instanceof Error ? err.message : String(err)}`;
  }
  const ok = db === "ok";
  return json(ok ? 200 : 503, {
    status: ok ? "ok" : "degraded",
    version: deps.version,
    db,
    visits: { queued: visits.queued, written: visits.written, dropped: visits.dropped, discarded: visits.discarded },
  });
}
