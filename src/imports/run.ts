// One import, the same for every source: read the links, plan them (plan.ts), write them a page at
// a time, then the history after where the last run stopped. Every write is a transaction with its
// place in the source, so a re-run changes nothing and an interrupted run goes on. A failure says
// what was imported before it; nothing partial goes unreported.

import { generateId } from "../links/id.ts";
import { isReserved } from "../links/alias.ts";
import type { Creator } from "../links/link.ts";
import { ownedBy } from "../links/create.ts";
import { SourceError, type ImportedLinks, type ImportSource, type SourceLink } from "./source.ts";
import { planImport, PROBLEM_TEXT, type ConflictPolicy, type Plan, type Problem } from "./plan.ts";
import type { ImportedLink, ImportedLinkRow, ImportTarget } from "./target.ts";
import { countRows, visitConverter } from "./visits.ts";
import type { Progress } from "./progress.ts";
import { takeLease, type Lease } from "./lease.ts";
import { landing, type DomainMap, type Landing } from "./domains.ts";
import { linkKey } from "../domains/link-key.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";

export type ImportOptions = {
  policy: ConflictPolicy;
  dryRun: boolean;
  /** --visits: the history too */
  history: boolean;
  /** who the new links belong to (the dashboard's admin); null: nobody's (the command line) */
  owner: Creator | null;
  checkUrl: (url: string) => { ok: true; url: string } | { ok: false; error: string };
  /** --domain-map (domains.ts) */
  domainMap: DomainMap;
  /** --base-url's host: the name of our default domain (baseHostOf) */
  baseHost: string | null;
  progress: Progress;
  /** Asked between pages: true ends the import there (the service is stopping), as an interruption it reports. */
  stopping?: () => boolean;
};

class Interrupted extends Error {}

export type ImportReport = {
  source: string;
  dryRun: boolean;
  /** done; refused (problems under --on-conflict fail: nothing written); stopped (a failure half-way: what came before it is kept) */
  outcome: "done" | "refused" | "stopped";
  error: { code: string; message: string } | null;
  links: { read: number; created: number; already: number; renamed: { code: string; id: string; why: string }[]; skipped: { code: string; why: string }[] };
  problems: { code: string; why: string }[];
  /** domains of the source added here for its links (docs/importing.md: Domains) */
  domains: { added: string[] };
  history: { keeps: ImportSource["keeps"]; visits: number; clicksCounted: number; otherLinks: number };
  notes: string[];
};

// A page of links or visits a transaction: a few milliseconds of the write lock at a time.
const LINKS_PER_WRITE = 500;
const IDS_PER_LOOKUP = 500;

export async function runImport(source: ImportSource, target: ImportTarget, o: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    source: source.kind, dryRun: o.dryRun, outcome: "done", error: null,
    links: { read: 0, created: 0, already: 0, renamed: [], skipped: [] }, problems: [], domains: { added: [] },
    history: { keeps: source.keeps, visits: 0, clicksCounted: 0, otherLinks: 0 }, notes: [],
  };
  let lease: Lease | null = null;
  try {
    if (!o.dryRun) {
      const taken = await takeLease(target, source.identity);
      if ("heldBy" in taken) {
        report.outcome = "refused";
        report.error = { code: "running", message: `this import is already running (${taken.heldBy}); nothing was written` };
        return report;
      }
      lease = taken;
    }
    const links = await readLinks(source, o.progress, report);
    const land = landing(links.values(), o.domainMap, await target.domains(), o.baseHost);
    if (land.refusal !== null) {
      report.outcome = "refused";
      report.error = { code: "bad_option", message: `${land.refusal}; nothing was written` };
      return report;
    }
    const plan = await makePlan(links, source.identity, target, o, land);
    report.links.already = plan.already.size;
    report.links.skipped = plan.skipped.map((s) => ({ code: s.shown, why: s.detail }));
    report.problems = plan.conflicts.map((c) => ({ code: c.shown, why: c.detail }));
    report.notes.push(...land.notes, ...plan.notes);
    if (plan.conflicts.length > 0) {
      report.outcome = "refused";
      report.error = { code: "conflicts", message: `${plan.conflicts.length} of the source's links cannot be kept as they are; nothing was written. Choose --on-conflict skip or rename, or resolve them.` };
      return report;
    }
    // Only the domains a link lands on that is to be written; a dry run says which it would add.
    const wanted = new Set(plan.create.map((p) => p.domain));
    report.domains.added = land.added.filter((name) => wanted.has(name));
    if (!o.dryRun) for (const name of report.domains.added) await target.addDomain(name, Date.now());
    const ids = new Map(plan.already);
    const renew = () => lease?.renew() ?? Promise.resolve();
    await writeLinks(plan, source.identity, target, o, report, ids, renew);
    if (o.history && source.history) await importHistory(source, target, o, report, ids, links, renew);
  } catch (err) {
    report.outcome = "stopped";
    report.error =
      err instanceof SourceError ? { code: err.code, message: err.message }
      : err instanceof Interrupted ? { code: "interrupted", message: "the service stopped while the import ran" }
      : { code: "failed", message: err instanceof Error ? err.message : String(err) };
  } finally {
    await lease?.release().catch(() => {});
    await source.close?.().catch(() => {});
  }
  return report;
}

async function readLinks(source: ImportSource, progress: Progress, report: ImportReport): Promise<Map<string, SourceLink>> {
  progress.phase("reading links", null);
  const links = new Map<string, SourceLink>();
  let twice = 0;
  for await (const page of source.links()) {
    // Offset-paged sources can hand a link twice when the list moves meanwhile (and a CSV can name
    // an alias twice): the first stays, and the others are counted in the report.
    for (const link of page) {
      if (links.has(link.key)) twice++;
      else links.set(link.key, link);
    }
    report.links.read = links.size;
    progress.add(page.length);
  }
  if (twice > 0) report.notes.push(`${twice.toLocaleString("en")} link${twice === 1 ? "" : "s"} came twice from the source (the same code, or a list that moved while it was read): the first of each was kept`);
  progress.end();
  return links;
}

async function makePlan(links: Map<string, SourceLink>, identity: string, target: ImportTarget, o: ImportOptions, land: Landing): Promise<Plan> {
  const imported = new Map([...(await target.importedLinks(identity))].map(([key, link]) => [key, link.id]));
  // Each code asked on the domain its link lands on.
  const asked = new Map<string, { domain: string; id: string }>();
  for (const l of links.values()) {
    const place = land.place(l);
    if (imported.has(l.key) || l.code === null || "problem" in place) continue;
    asked.set(linkKey(place.domain, l.code), { domain: place.domain, id: l.code });
  }
  const pairs = [...asked.values()];
  const taken = new Map<string, "taken" | "retired">();
  for (let i = 0; i < pairs.length; i += IDS_PER_LOOKUP) for (const [key, how] of await target.takenIds(pairs.slice(i, i + IDS_PER_LOOKUP))) taken.set(key, how);
  return planImport({ links: [...links.values()], policy: o.policy, imported, placeOf: land.place, taken, checkUrl: o.checkUrl, newId });
}

function newId(): string {
  for (;;) {
    const id = generateId();
    if (!isReserved(id)) return id;
  }
}

async function writeLinks(plan: Plan, identity: string, target: ImportTarget, o: ImportOptions, report: ImportReport, ids: Map<string, string>, renew: () => Promise<void>): Promise<void> {
  o.progress.phase(o.dryRun ? "links to create" : "creating links", plan.create.length);
  let pending: ImportedLinkRow[] = plan.create.map((p) => row(p.link, p.id, p.domain, p.url, o.owner));
  const why = new Map<string, Problem>(plan.create.filter((p) => p.renamedBecause !== null).map((p) => [p.link.key, p.renamedBecause!]));
  // As the report names a link, and its new id (domain/id off the default domain).
  const shown = new Map(plan.create.map((p) => [p.link.key, p.shown]));
  const shownId = (r: ImportedLinkRow) => (r.link.domain ? `${r.link.domain}/${r.id}` : r.id);
  while (pending.length > 0) {
    const page = pending.slice(0, LINKS_PER_WRITE);
    pending = pending.slice(LINKS_PER_WRITE);
    // A link made here meanwhile under the same code: the policy decides, as for those found before.
    if (o.stopping?.()) throw new Interrupted();
    await renew();
    const refused = new Set(o.dryRun ? [] : await target.addLinks(identity, page));
    for (const r of page) {
      if (!refused.has(r.key)) {
        ids.set(r.key, linkKey(r.link.domain ?? DEFAULT_DOMAIN, r.id));
        report.links.created++;
        const because = why.get(r.key);
        if (because !== undefined) report.links.renamed.push({ code: shown.get(r.key)!, id: shownId(r), why: PROBLEM_TEXT[because] });
      } else if (o.policy === "rename") {
        why.set(r.key, why.get(r.key) ?? "taken");
        pending.push({ ...r, id: newId() });
      } else if (o.policy === "skip") {
        report.links.skipped.push({ code: shown.get(r.key)!, why: PROBLEM_TEXT.taken });
      } else {
        throw new Error(`"${shown.get(r.key)!}" was created here while the import ran; ${report.links.created} links were imported before it (run again with --on-conflict skip or rename)`);
      }
    }
    o.progress.add(page.length);
  }
  o.progress.end();
}

function row(link: SourceLink, id: string, domain: string, url: string, owner: Creator | null): ImportedLinkRow {
  return {
    key: link.key, id, createdAt: link.createdAt, disabled: link.disabledBecause !== null,
    link: { url, alias: id, domain, ...ownedBy(owner), expiresAt: link.expiresAt, maxClicks: link.maxClicks, validFrom: link.validFrom, tags: link.tags, crawlable: link.crawlable ?? false,
      title: link.title, ...link.card },
  };
}

async function importHistory(
  source: ImportSource, target: ImportTarget, o: ImportOptions, report: ImportReport, ids: Map<string, string>, links: Map<string, SourceLink>, renew: () => Promise<void>,
): Promise<void> {
  const known = new Map([...links].filter(([key]) => ids.has(key)).map(([key, link]) => [key, { link, id: ids.get(key)! }]));
  o.progress.phase(source.keeps === "counts" ? "click counts" : "visits", source.keeps === "visits" ? sumClicks(known) : null);
  const convert = visitConverter();
  // The history is written under each link's seq: read once, now that every link is written. A
  // dry run wrote none: its links have no seq, and none is needed (nothing is written).
  const written = o.dryRun ? new Map<string, ImportedLink>() : await target.importedLinks(source.identity);
  const linkOf = (key: string): ImportedLink | undefined => {
    const id = ids.get(key);
    return id === undefined ? undefined : { id, seq: written.get(key)?.seq ?? 0 };
  };
  const urlOf = (key: string) => links.get(key)?.url;
  // A dry run reads from where the last real run stopped too, and says what a real run would add.
  const cursors = {
    one: (scope: string) => Promise.resolve(target.cursor(source.identity, scope)),
    all: (prefix: string) => Promise.resolve(target.cursors(source.identity, prefix)),
  };
  // The next page is read while this one is written: the source and the database work at once.
  for await (const page of readingAhead(source.history!(known, cursors))) {
    if (o.stopping?.()) throw new Interrupted();
    if (!o.dryRun) await renew();
    if ("visits" in page) {
      const { visits, unmatched } = convert(page.visits, linkOf, urlOf);
      report.history.otherLinks += unmatched;
      if (!o.dryRun) await target.addVisits(source.identity, page.cursors, visits);
      report.history.visits += visits.length;
      o.progress.add(page.visits.length);
    } else {
      const rows = countRows(page.counts, linkOf);
      if (!o.dryRun) await target.addCounts(source.identity, page.cursors, rows);
      let clicks = 0;
      for (const t of rows.totals.values()) clicks += t.total;
      report.history.clicksCounted += clicks;
      o.progress.add(clicks);
    }
  }
  o.progress.end();
}

// The source's own counters, for the bar's total (they can differ from its log: only a guide).
function sumClicks(links: ImportedLinks): number | null {
  let sum = 0;
  for (const { link: l } of links.values()) {
    if (l.clicks === null) return null;
    sum += l.clicks;
  }
  return sum;
}

/** The pages of `pages`, each one asked for as soon as the one before is handed out. */
async function* readingAhead<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  const it = pages[Symbol.asyncIterator]();
  let next = it.next();
  for (;;) {
    const r = await next;
    if (r.done) return;
    next = it.next();
    // Awaited in the next turn; a failure meanwhile must not count as unhandled.
    next.catch(() => {});
    yield r.value;
  }
}
