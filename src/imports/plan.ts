// What an import will do with each link of the source, decided before anything is written: kept
// under its own code, already imported before, or a problem (the code is taken here, breaks our
// alias rules, or its destination is refused) that --on-conflict resolves: fail (nothing written),
// skip, or rename (a new id, reported). Nothing is changed silently. A code is taken or free on the
// domain the link lands on (domains.ts): the same code on two domains is two links.

import { importedCodeProblem } from "../links/alias.ts";
import { MAX_TAGS, parseTags } from "../links/options.ts";
import type { SourceLink } from "./source.ts";
import { linkKey } from "../domains/link-key.ts";
import { fitTitle, MAX_TITLE_LENGTH, parseTitle } from "../links/title.ts";
import { fitCard, MAX_CARD_DESCRIPTION_LENGTH, MAX_CARD_TITLE_LENGTH } from "../links/card-fields.ts";
import type { FieldProblem } from "../errors.ts";
import { shownAt, type Place } from "./domains.ts";

export type ConflictPolicy = "fail" | "skip" | "rename";
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ["fail", "skip", "rename"];

/** Why a link cannot be kept under its code; "destination" and "domain" cannot be renamed away. */
export type Problem = "taken" | "retired" | "invalid" | "reserved" | "duplicate" | "destination" | "domain";

export const PROBLEM_TEXT: Record<Problem, string> = {
  taken: "the code is taken by a link here",
  retired: "the code belonged to a link deleted here, and is never used again",
  invalid: "the code breaks this shortener's rules for imported codes (1 to 64 letters, digits, - and _)",
  reserved: "the code is a word this service reserves for its own pages",
  duplicate: "another link of the source lands on the same code of the same domain here",
  destination: "the destination is refused here",
  domain: "it has no domain here",
};

/** `domain`: the stored domain it lands on ('' our default); `shown`: how the report names it. */
export type PlannedLink = { link: SourceLink; id: string; domain: string; shown: string; renamedBecause: Problem | null; url: string };
export type Refused = { link: SourceLink; problem: Problem; detail: string; shown: string };

export type Plan = {
  /** to insert, under their code or a new id */
  create: PlannedLink[];
  /** imported by an earlier run: their keys here (linkKey: alias@domain off the default; their history still comes) */
  already: Map<string, string>;
  /** left out, and why */
  skipped: Refused[];
  /** problems that stop an import under --on-conflict fail */
  conflicts: Refused[];
  /** said, but not in the way: codes that differ only by case, fields dropped, links imported disabled */
  notes: string[];
};

export type PlanInputs = {
  links: readonly SourceLink[];
  policy: ConflictPolicy;
  /** keys imported by an earlier run of this import, and their keys here */
  imported: Map<string, string>;
  /** where a link lands (domains.ts), or why it cannot */
  placeOf: (link: SourceLink) => Place | { problem: string };
  /** of the (domain, code) asked, by their key here, those taken: by a link, or retired (a deleted link's) */
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
  let titlesCut = 0;
  let cardsCut = 0;
  let imagesRefused = 0;
  for (const link of p.links) {
    const place = p.placeOf(link);
    if (link.code !== null) {
      // Twins by case on one domain: codes on two domains are never confused.
      const lower = linkKey("problem" in place ? "" : place.domain, link.code.toLowerCase());
      const twin = byLowerCase.get(lower);
      if (twin !== undefined && twin !== link.code) plan.notes.push(`"${link.code}" and "${twin}" differ only by case: both kept as they are (codes here are case-sensitive)`);
      else byLowerCase.set(lower, link.code);
    }
    if (link.disabledBecause !== null) plan.notes.push(`"${link.key}" imported disabled: ${link.disabledBecause}`);
    for (const field of link.dropped) dropped.set(field, (dropped.get(field) ?? 0) + 1);
    const tags = keptTags(link.tags);
    for (const tag of link.tags) if (!tags.includes(tag)) dropped.set(`the tag "${tag}"`, (dropped.get(`the tag "${tag}"`) ?? 0) + 1);
    link.tags = tags;
    const title = keptTitle(link.title);
    link.title = title.text;
    const card = fitCard(link.card ?? {}, p.checkUrl);
    link.card = card.card;

    const before = p.imported.get(link.key);
    if (before !== undefined) {
      plan.already.set(link.key, before);
      claimed.add(before);
      continue;
    }
    const refuse = (problem: Problem, detail: string) => (p.policy === "fail" ? plan.conflicts : plan.skipped).push({ link, problem, detail, shown: shownAt(link, place) });
    const url = p.checkUrl(link.url);
    if (!url.ok) {
      refuse("destination", url.error);
      continue;
    }
    if ("problem" in place) {
      refuse("domain", place.problem);
      continue;
    }
    const planned = (id: string, renamedBecause: Problem | null) => {
      claimed.add(linkKey(place.domain, id));
      // Said of the links written: a link imported before keeps what it has.
      if (title.cut) titlesCut++;
      if (card.cut) cardsCut++;
      if (card.imageRefused) imagesRefused++;
      plan.create.push({ link, id, domain: place.domain, shown: shownAt(link, place), renamedBecause, url: url.url });
    };
    if (link.code === null) {
      planned(p.newId(), null);
      continue;
    }
    const problem = problemOf(link.code, place.domain, p, claimed);
    if (problem === null) planned(link.code, null);
    else if (p.policy === "rename") planned(p.newId(), problem);
    else refuse(problem, PROBLEM_TEXT[problem]);
  }
  if (titlesCut > 0) plan.notes.push(`the title of ${titlesCut.toLocaleString("en")} link${titlesCut === 1 ? "" : "s"}: longer than ${MAX_TITLE_LENGTH} characters, kept cut to ${MAX_TITLE_LENGTH}`);
  if (cardsCut > 0) plan.notes.push(`the card of ${counted(cardsCut)}: a title over ${MAX_CARD_TITLE_LENGTH} or a description over ${MAX_CARD_DESCRIPTION_LENGTH} characters, kept cut`);
  if (imagesRefused > 0) plan.notes.push(`the card image of ${counted(imagesRefused)}: not an http(s) URL this service links to, not kept`);
  for (const [field, n] of dropped) plan.notes.push(`${field} of ${n.toLocaleString("en")} link${n === 1 ? "" : "s"}: not kept (this shortener has no place for it)`);
  return plan;
}

function counted(n: number): string {
  return `${n.toLocaleString("en")} link${n === 1 ? "" : "s"}`;
}

/** The tags this shortener can hold (1 to 30 letters, digits, - and _; at most MAX_TAGS): the rest are reported. */
function keptTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()))].filter((t) => parseTags([t]).ok).slice(0, MAX_TAGS);
}

/** The title as a link here holds it (fitTitle: whitespace collapsed, at most MAX_TITLE_LENGTH), and whether that cut it short. */
function keptTitle(title: string | null): { text: string | null; cut: boolean } {
  // A peer's JSON may hold anything where a title belongs: what is not text is no title (never a stopped import).
  if (typeof title !== "string") return { text: null, cut: false };
  // parseTitle refuses a text that is still too long once fitted: what a create would refuse, an import keeps cut, and says so.
  const tooLong: FieldProblem[] = [];
  parseTitle(title, "title", tooLong);
  return { text: fitTitle(title), cut: tooLong.length > 0 };
}

function problemOf(code: string, domain: string, p: PlanInputs, claimed: Set<string>): Problem | null {
  const rule = importedCodeProblem(code);
  if (rule === "alias_invalid") return "invalid";
  if (rule === "alias_reserved") return "reserved";
  const key = linkKey(domain, code);
  if (claimed.has(key)) return "duplicate";
  return p.taken.get(key) ?? null;
}
