// `shortener import --from SOURCE`: links and their history from another shortener into the
// database the command finds (docs/importing.md: Moving from another shortener). Exit 0 when done, 1 when refused or
// stopped (the report says what was imported), 2 for a usage error.

import { openImports } from "../db/open-storage.ts";
import { describeLocation } from "../db/storage.ts";
import { importDestinations } from "../imports/destinations.ts";
import type { Config } from "../config.ts";
import { openSource } from "../imports/sources/index.ts";
import { SourceError } from "../imports/source.ts";
import { CONFLICT_POLICIES, type ConflictPolicy } from "../imports/plan.ts";
import { OPERATOR } from "../auth/policy.ts";
import { importHere } from "../ops/imports/run.ts";
import { createProgress } from "../imports/progress.ts";
import { reportLines } from "../imports/report.ts";
import { STDIO, type Output } from "./table.ts";
import type { DatabaseLocator } from "./database.ts";
import { cannotOpen } from "./permission.ts";
import { OPERATOR_REACH } from "../outbound/reach.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";
import { parseDomainMap } from "../imports/domains.ts";
import { baseHostOf } from "../domains/domain.ts";

export async function runImportCommand(config: Config, database: DatabaseLocator, databasePassword: string | null, flags: Record<string, string>, env: Record<string, string | undefined>, io: Output = STDIO, terminal = process.stderr.isTTY === true): Promise<number> {
  const policy = (flags["on-conflict"] ?? "fail") as ConflictPolicy;
  if (!CONFLICT_POLICIES.includes(policy)) {
    io.err(`shortener: --on-conflict must be ${CONFLICT_POLICIES.join(", ")}, not ${flags["on-conflict"]}`);
    return 2;
  }
  const domainMap = parseDomainMap(flags["domain-map"]);
  if (!domainMap.ok) {
    io.err(`shortener: ${domainMap.error}`);
    return 2;
  }
  let source;
  try {
    // Run by the operator on the host: it reaches what the host reaches (docs/importing.md: Moving from another shortener).
    source = openSource(flags.from, flags, env, OPERATOR_REACH);
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    io.err(`shortener: ${err.message}`);
    return 2;
  }
  const found = database();
  if (!found.ok) {
    await source.close?.();
    io.err(`shortener: ${found.message}`);
    return found.exitCode;
  }
  let storage;
  try {
    storage = await openImports(found.location, databasePassword);
  } catch (err) {
    await source.close?.();
    io.err(`shortener: ${cannotOpen(found.location, err, "command")}`);
    return 1;
  }
  // Which database receives the links, before the progress: a wrong one is seen at once.
  io.err(`shortener: importing into ${describeLocation(found.location)}`);
  try {
    const checkUrl = await importDestinations({ baseUrl: config.baseUrl, allowLocal: config.allowLoopbackDestinations, blocklist: config.blocklist, allowSchemes: config.allowSchemes });
    const asked = { from: flags.from!, source, policy, dryRun: flags["dry-run"] === "true", history: flags.visits === "true", domainMap: domainMap.map };
    const imported = await importHere(OPERATOR, asked, {
      target: storage.imports, log: COMMAND_LOG, checkUrl, baseHost: baseHostOf(config.baseUrl), progress: createProgress((text) => process.stderr.write(text), terminal),
    });
    if (!imported.ok) {
      await source.close?.();
      return sayProblem(imported.problem, io, describeLocation(found.location));
    }
    for (const line of reportLines(imported.value)) io.out(line);
    return imported.value.outcome === "done" ? 0 : 1;
  } finally {
    await storage.close();
  }
}
