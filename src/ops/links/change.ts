// Changing a link (docs/managing-links.md: Managing links): only its owner's or an admin's; the
// changes checked by the rules of a create (src/links/changes.ts); the store drops its cached
// entry before it answers, so the next click uses the new values.

import type { Principal } from "../../auth/policy.ts";
import { hashBehaviour } from "../../links/behaviour.ts";
import { parseChanges } from "../../links/changes.ts";
import { CAMEL_SHORTCUT_NAMES, namesShortcut, withShortcuts } from "../../links/os-shortcuts.ts";
import { windowOpen } from "../../links/options.ts";
import type { Link } from "../../links/link.ts";
import type { FieldProblem } from "../../errors.ts";
import { logAction } from "../audit.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import { destinationRules, type LinkOpsDeps } from "./deps.ts";
import { noSuchLink, visibleLink } from "./get.ts";

/** `changes`: the request's JSON value, as sent (checked here); `ownHosts`: as for a create. */
export type ChangeInput = { id: string; changes: unknown; ownHosts: readonly string[] };

/** The changed link, or why not; a refused write is logged and thrown, as the store throws it. */
export async function changeLink(actor: Principal, input: ChangeInput, deps: Pick<LinkOpsDeps, "config" | "links" | "blocklist" | "log" | "now">): Promise<Outcome<Link>> {
  const { id } = input;
  const current = await visibleLink(id, actor, deps);
  if (current === null) {
    logAction(deps.log, actor, "update", id, "not_found");
    return noSuchLink(id);
  }
  const parsed = parseChanges(input.changes, { ...destinationRules(input.ownHosts, deps), now: deps.now() });
  if (!parsed.ok) {
    logAction(deps.log, actor, "update", id, "malformed" in parsed ? "bad_request" : parsed.problems[0]!.code);
    return "malformed" in parsed ? refused("bad_request", parsed.malformed) : refusedFields(parsed.problems);
  }
  // The start must stay before the end, the one not changed taken as stored; checked only when either changes,
  // so a link stored before this rule can still have its title changed.
  const { changes, behaviour } = parsed;
  // iosUrl/androidUrl rewrite the rules this request gives, else the stored ones.
  if (namesShortcut(parsed.shortcuts)) {
    const problems: FieldProblem[] = [];
    behaviour.rules = withShortcuts(behaviour.rules !== undefined ? behaviour.rules : current.rules, parsed.shortcuts, CAMEL_SHORTCUT_NAMES, problems);
    if (problems.length > 0) {
      logAction(deps.log, actor, "update", id, problems[0]!.code);
      return refusedFields(problems);
    }
  }
  if (("validFrom" in behaviour || "expiresAt" in changes) && !windowOpen(behaviour.validFrom !== undefined ? behaviour.validFrom : current.validFrom, changes.expiresAt !== undefined ? changes.expiresAt : current.expiresAt)) {
    logAction(deps.log, actor, "update", id, "valid_from_invalid");
    return refusedFields([{ code: "valid_from_invalid", field: "validFrom", error: "validFrom must be before expiresAt" }]);
  }
  let updated: Link | null;
  try {
    updated = await deps.links.update(id, { ...parsed.changes, ...(await hashBehaviour(parsed.behaviour)) });
  } catch (err) {
    logAction(deps.log, actor, "update", id, "storage_unavailable");
    throw err;
  }
  if (updated === null) return noSuchLink(id); // deleted in between
  logAction(deps.log, actor, "update", id, `ok ${[...Object.keys(parsed.changes), ...Object.keys(parsed.behaviour)].join(",")}`);
  return done(updated);
}
