// STUB (#40 frame): the page that opens an app's link (--allow-schemes) for a click. Part F builds it.

import type { Destination } from "../links/destination.ts";
import type { RequestClick } from "./click.ts";
import type { RedirectDeps } from "./redirect.ts";

export function openAppAnswer(_destination: Destination, location: string, _route: string | null, _click: RequestClick, _deps: RedirectDeps): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store, max-age=0" } });
}
