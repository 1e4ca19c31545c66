// GET /api/orphan-visits/export: visits to no link as CSV or JSON lines, streamed and resumable as a
// link's visits are (docs/statistics.md: Visits to no link; Exporting visits). Admins only: 401
// without credentials, 403 admin_only for anyone else, before anything is read.

import { exportOrphanVisits, type ExportOrphansDeps } from "../ops/orphans/export.ts";
import { orphansRefusal } from "../ops/orphans/read.ts";
import { dayOf } from "../util/day.ts";
import { ORPHAN_TYPES, type OrphanType } from "../visits/orphans.ts";
import { requireAllowed, type AuthDeps } from "./auth.ts";
import { problemResponse } from "./problems.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError } from "./responses.ts";
import { exportAsked, exportResponse } from "./visit-export.ts";
import { withExportSlot, type ExportSlots } from "./export-slots.ts";

export type OrphanExportDeps = AuthDeps & ExportOrphansDeps & { now: () => number };

/** `slots`: the places of the exports running, shared with the export of a link's visits. */
export async function handleOrphanExport(request: Request, server: PeerServer, deps: OrphanExportDeps, slots: ExportSlots): Promise<Response> {
  const auth = await requireAllowed(request, server, deps, orphansRefusal);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const asked = exportAsked(query);
  if (asked instanceof Response) return asked;
  const type = query.get("type") || null;
  if (type !== null && !(ORPHAN_TYPES as readonly string[]).includes(type)) return apiError(400, "bad_request", `type must be one of ${ORPHAN_TYPES.join(", ")}`, "type");
  // The same places as a link's visits (src/http/export-slots.ts).
  return withExportSlot(
    slots,
    auth.principal,
    async (ended) => {
      const exported = await exportOrphanVisits(auth.principal, { ...asked, type: type as OrphanType | null, ended }, deps);
      return exported.ok ? exported : { ok: false, response: problemResponse(exported.problem) };
    },
    (stream) => exportResponse(stream, asked.format, `orphan-visits-${dayOf(deps.now())}`),
  );
}
