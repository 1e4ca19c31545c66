// "Export visits" on a link's stats page (docs/statistics.md: Exporting visits): shown only to
// whoever may manage the link (signed in, and the link answers GET /api/links/:id: its owner or an
// admin); each download carries the page's range and bots filter as the menu opens.
import { byId } from "./common.ts";
import { bindMenu } from "./dashboard/menu.ts";

/** `query`: the page's own question (id, domain, from, to, bots), which the export takes as it is. */
export async function offerVisitExport(id: string, domain: string, query: () => URLSearchParams): Promise<void> {
  const block = byId("visit-export");
  bindMenu(byId("visit-export-menu"), {
    onOpen: () => {
      for (const format of ["csv", "jsonl"]) {
        const params = query();
        params.set("format", format);
        byId<HTMLAnchorElement>(`visit-export-${format}`).href = `/api/visits/export?${params}`;
      }
    },
  });
  try {
    const who = (await (await fetch("/api/session", { headers: { Accept: "application/json" } })).json()) as { data?: { signedIn?: boolean; scope?: string } };
    if (who.data?.signedIn !== true) return;
    if (who.data.scope !== "admin") {
      const suffix = domain === "" ? "" : `?${new URLSearchParams({ domain })}`;
      if (!(await fetch(`/api/links/${encodeURIComponent(id)}${suffix}`, { headers: { Accept: "application/json" } })).ok) return;
    }
    block.hidden = false;
  } catch {
    // Not offered when it cannot be known: the page itself works on.
  }
}
