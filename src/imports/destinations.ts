// The destinations an import accepts: the same checks as a create (src/links/create.ts), with
// this service's own host (--base-url), --allow-loopback-destinations, --allow-schemes and --blocklist.

import { checkDestination } from "../links/create.ts";
import { readBlocklist } from "../links/blocklist-file.ts";

export type DestinationSettings = { baseUrl: string | null; allowLocal: boolean; blocklist: string | null; allowSchemes?: ReadonlySet<string> };
export type CheckUrl = (url: string) => { ok: true; url: string } | { ok: false; error: string };

export async function importDestinations(s: DestinationSettings): Promise<CheckUrl> {
  const blocklist = readBlocklist(s.blocklist);
  const rules = { ownHosts: s.baseUrl === null ? [] : [new URL(s.baseUrl).host], allowLocal: s.allowLocal, allowSchemes: s.allowSchemes, isBlocked: (url: string) => blocklist.matches(url) };
  return (url) => {
    const checked = checkDestination(url, rules);
    return checked.ok ? checked : { ok: false, error: checked.error };
  };
}
