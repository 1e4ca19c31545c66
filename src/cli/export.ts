// `shortener export visits` (docs/statistics.md: Exporting visits): the raw visits of a link, a tag,
// a domain or every link, or (--orphans) the visits to no link, as CSV or JSON lines, on stdout or into a file. The same operation and
// rows as GET /api/visits/export, as the operator (every link); written a chunk at a time, the next
// read only once the last is written, so memory stays flat at any size.

import { createWriteStream, existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { OPERATOR } from "../auth/policy.ts";
import type { Config } from "../config.ts";
import { openStorage } from "../db/open-storage.ts";
import { baseHostOf } from "../domains/domain.ts";
import { DomainDirectory } from "../domains/directory.ts";
import { exportDomainNames, exportedVisitsOf, exportVisits } from "../ops/stats/export-visits.ts";
import { exportOrphanVisits } from "../ops/orphans/export.ts";
import { exportRange } from "../stats/export-range.ts";
import { VISIT_EXPORT_FORMATS, type VisitExportFormat } from "../stats/visit-export-format.ts";
import { EXPORT_START, parseCursor, type VisitCursor } from "../stats/visit-export.ts";
import { withOpened } from "./accounts.ts";
import type { DatabaseLocator } from "./database.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";
import { didYouMean } from "./suggest.ts";
import { STDIO, type Output } from "./table.ts";

const USAGE = "usage: shortener export visits [--link ALIAS | --tag TAG | --domain NAME | --orphans] [--from DAY|TIME] [--to DAY|TIME] [--bots exclude] [--format csv|jsonl] [--output FILE] [--after VISIT_ID]";
const FLAGS = ["link", "tag", "domain", "from", "to", "bots", "format", "output", "after", "orphans"];

/** What the command line asks, checked; or why it cannot be done (exit 2). */
type Asked = { format: VisitExportFormat; fromTs: number; toTs: number; excludeBots: boolean; after: VisitCursor; output: string | null; orphans: boolean };

/** Runs `export visits`; the exit code: 0 written, 1 refused by what the database holds or a failed write, 2 a usage error. */
export async function runExportCommand(config: Config, database: DatabaseLocator, databasePassword: string | null, args: readonly string[], flags: Record<string, string>, io: Output = STDIO, stdout: Writable = process.stdout): Promise<number> {
  const asked = checkAsked(args, flags);
  if (typeof asked === "string") {
    io.err(`shortener: ${asked} (${USAGE})`);
    return 2;
  }
  return withOpened(database, (location) => openStorage(location, { busyTimeoutMs: 5_000, password: databasePassword }), io, async (storage, where) => {
    const exportLinkVisits = async (query: Omit<Asked, "output" | "orphans">) => {
      const directory = new DomainDirectory(baseHostOf(config.baseUrl), () => storage.domains.settings());
      await directory.reload();
      const of = exportedVisitsOf({ id: flags.link, domain: flags.domain, tag: flags.tag }, directory);
      if (!of.ok) return of;
      return exportVisits(OPERATOR, { of: of.value, ...query, domainNames: exportDomainNames(directory) }, { links: storage.links, lister: storage.lister, visitExport: storage.visitExport, log: COMMAND_LOG, now: Date.now });
    };
    const { output, orphans, ...query } = asked;
    const exported = orphans ? await exportOrphanVisits(OPERATOR, { ...query, type: null }, { visitExport: storage.visitExport, log: COMMAND_LOG }) : await exportLinkVisits(query);
    if (!exported.ok) return sayProblem(exported.problem, io, where);
    // A resumed export (--after) goes on at the end of the file it continues; a new one never overwrites.
    const target = output === null ? stdout : createWriteStream(output, { flags: asked.after === EXPORT_START ? "wx" : "a" });
    const failed = await writeAll(exported.value, target, output !== null, output ?? "the output");
    if (failed !== null) {
      io.err(`shortener: ${failed}`);
      return 1;
    }
    if (output !== null) io.err(`shortener: exported the visits to ${output}`);
    return 0;
  });
}

/** The flags read and checked, or the line that says what is wrong. */
function checkAsked(args: readonly string[], flags: Record<string, string>): Asked | string {
  const [what, ...rest] = args;
  if (what !== "visits") return what === undefined ? "export needs what to export: visits" : `unknown export ${what}${didYouMean(what, ["visits"])}`;
  if (rest.length > 0) return `export visits takes no name (${rest[0]}); a link is --link ALIAS`;
  const stray = Object.keys(flags).find((f) => !FLAGS.includes(f));
  if (stray !== undefined) return `--${stray} does not belong to export visits`;
  if (flags.link !== undefined && flags.tag !== undefined) return "--link and --tag contradict each other: one link, or the links with a tag";
  const orphans = flags.orphans === "true";
  const linkFlag = ["link", "tag", "domain"].find((f) => flags[f] !== undefined);
  if (orphans && linkFlag !== undefined) return `--orphans and --${linkFlag} contradict each other: visits to no link belong to no link, tag or domain`;
  for (const name of ["link", "tag", "domain", "output"]) if (flags[name] === "") return `--${name} needs a value`;
  const format = (flags.format ?? "csv") as VisitExportFormat;
  if (!VISIT_EXPORT_FORMATS.includes(format)) return `--format must be csv or jsonl, not ${flags.format}`;
  const bots = flags.bots;
  if (bots !== undefined && bots !== "exclude" && bots !== "include") return `--bots must be exclude or include, not ${bots}`;
  const range = exportRange(flags.from, flags.to);
  if (!range.ok) return `--${range.error}`;
  const after = flags.after === undefined ? EXPORT_START : parseCursor(flags.after);
  if (after === null) return `--after must be a row's visitId, as <batch>-<position>, not ${flags.after}`;
  const output = flags.output === undefined ? null : resolve(flags.output);
  if (output !== null && after === EXPORT_START && existsSync(output)) return `--output ${output} exists; export never overwrites a file (with --after it appends to it)`;
  return { format, ...range.value, excludeBots: bots === "exclude", after, output, orphans };
}

/**
 * Writes the stream's chunks to `target`, each once the one before is taken (the next chunk is read
 * only then); closes a file. Null when all was written, else why not (the read is stopped).
 */
async function writeAll(stream: ReadableStream<Uint8Array>, target: Writable, close: boolean, name: string): Promise<string | null> {
  let failure: Error | null = null;
  let reading: string | null = null;
  target.on("error", (err) => (failure ??= err));
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      await new Promise<void>((ok) => target.write(value, (err) => ((failure ??= err ?? null), ok())));
      if (failure !== null) {
        await reader.cancel();
        break;
      }
    }
  } catch (err) {
    reading = `the export stopped, reading the database failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (close) await new Promise<void>((ok) => target.end(ok));
  return failure !== null ? `cannot write ${name}: ${(failure as Error).message}` : reading;
}
