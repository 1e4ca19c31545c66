// What an import will do with each link of the source, decided before anything is written: kept
// under its own code, already imported before, or a problem (the code is taken here, breaks our
// alias rules, or its destination is refused) that --on-conflict resolves: fail (nothing written),
// skip, or rename (a new id, reported). Nothing is changed silently.

import { importedCodeProblem } from "../links/alias.ts";
import { MAX_TAGS, parseTags } from "../links/options.ts";
import type { SourceLink } from "./source.ts";

export type ConflictPolicy = "fail" | "skip" | "rename";
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ["fail", "skip", "rename"];

/** Why a link cannot be kept under its code; "destination" cannot be renamed away. */
export type Problem = "taken" | "retired" | "invalid" | "reserved" | "duplicate" | "destination";

export const PROBLEM_TEXT: Record<Problem, string> = {
  taken: "the code is taken by a link here",
  retired: "the code belonged to a link deleted here, and is never used again",
  invalid: "the code breaks this shortener's rules for imported codes (1 to 64 letters, digits, - and _)",
  reserved: "the code is a word this service reserves for its own pages",
  duplicate: "another link of the source has the same code (on another domain)",
  destination: "the destination is refused here",
};

export type PlannedLink = { link: SourceLink; id: string; renamedBecause: Problem | null; url: string };

export type Plan = {
  /** to insert, under their code or a new id */
  create: PlannedLink[];
  /** imported by an earlier run: their ids here (their history still comes) */
  already: Map<string, string>;
  /** left out, and why */
  skipped: { link: SourceLink; problem: Problem; detail: string }[];
  /** problems that stop an import under --on-conflict fail */
  conflicts: { link: SourceLink; problem: Problem; detail: string }[];
  /** said, but not in the way: codes that differ only by case, fields dropped, links imported disabled */
  notes: string[];
};

export type PlanInputs = {
  links: readonly SourceLink[];
  policy: ConflictPolicy;
  /** keys imported by an earlier run of this import, and their ids here */
  imported: Map<string, string>;
  /** of the codes asked, those taken here: by a link, or retired (a deleted link's) */
  taken: Map<string, "taken" | "retired">;
  /** the destination as stored, or why it is refused */
  checkUrl: (url: string) => { ok: true; url: string } | { ok: false; error: string };
  /** a new id, free here */
  newId: () => string;
};

export function planImport(p: PlanInputs): Plan {
  const plan: Plan = { create: [], already: new Map(), skipped: [], conflicts: [], notes: [] };
  const claimed = new Set<string>();
  const byLowerCase = new Map<string, string>();
  const dropped = new Map<string, number>();
  for (const link of p.links) {
    if (link.code !== null) {
      const lower = link.code.toLowerCase();
      const twin = byLowerCase.get(lower);
      if (twin !== undefined && twin !== link.code) plan.notes.push(`"${link.code}" and "${twin}" differ only by case: both kept as they are (codes here are case-sensitive)`);
      else byLowerCase.set(lower, link.code);
    }
    if (link.disabledBecause !== null) plan.notes.push(`"${link.key}" imported disabled: ${link.disabledBecause}`);
    for (const field of link.dropped) dropped.set(field, (dropped.get(field) ?? 0) + 1);
    const tags = keptTags(link.tags);
    for (const tag of link.tags) if (!tags.includes(tag)) dropped.set(`the tag "${tag}"`, (dropped.get(`the tag "${tag}"`) ?? 0) + 1);
    link.tags = tags;

    const before = p.imported.get(link.key);
    if (before !== undefined) {
      plan.already.set(link.key, before);
      claimed.add(before);
      continue;
    }
    const url = p.checkUrl(link.url);
    if (!url.ok) {
      const entry = { link, problem: "destination" as const, detail: url.error };
      (p.policy === "fail" ? plan.conflicts : plan.skipped).push(entry);
      continue;
    }
    if (link.code === null) {
      const id = p.newId();
      claimed.add(id);
      plan.create.push({ link, id, renamedBecause: null, url: url.url });
      continue;
    }
    const problem = problemOf(link.code, p, claimed);
    if (problem === null) {
      claimed.add(link.code);
      plan.create.push({ link, id: link.code, renamedBecause: null, url: url.url });
    } else if (p.policy === "rename") {
      const id = p.newId();
      claimed.add(id);
      plan.create.push({ link, id, renamedBecause: problem, url: url.url });
    } else {
      (p.policy === "fail" ? plan.conflicts : plan.skipped).push({ link, problem, detail: PROBLEM_TEXT[problem] });
    }
  }
  for (const [field, n] of dropped) plan.notes.push(`${field} of ${n.toLocaleString("en")} link${n === 1 ? "" : "s"}: not kept (this shortener has no place for it)`);
  return plan;
}

/** The tags this shortener can hold (1 to 30 letters, digits, - and _; at most MAX_TAGS): the rest are reported. */
function keptTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()))].filter((t) => parseTags([t]).ok).slice(0, MAX_TAGS);
}

function problemOf(code: string, p: PlanInputs, claimed: Set<string>): Problem | null {
  const rule = importedCodeProblem(code);
  if (rule === "alias_invalid") return "invalid";
  if (rule === "alias_reserved") return "reserved";
  if (claimed.has(code)) return "duplicate";
  return p.taken.get(code) ?? null;
}
