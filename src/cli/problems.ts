// An operation's problem as the command line says it (docs/architecture.md: Operations): a line on
// stderr and an exit code. The commands act as the operator (src/auth/policy.ts OPERATOR), so the
// refusals of who is asking never reach here; what does is the database's answer.

import type { Logger } from "../log.ts";
import type { Problem } from "../ops/outcome.ts";
import type { Output } from "./table.ts";

/**
 * 2 for what the operator must change in the command itself (a private receiver the service would
 * not reach: the flag to set is named), 1 for a refusal of what the database holds.
 */
export function exitCodeOf(problem: Problem): 1 | 2 {
  return problem.code === "url_private" ? 2 : 1;
}

/** Says the problem on stderr, naming the database `where` what was looked for is missing from; returns the exit code. */
export function sayProblem(problem: Problem, io: Output, where: string): 1 | 2 {
  io.err(`shortener: ${problem.message}${problem.code === "not_found" ? ` in ${where}` : ""}`);
  return exitCodeOf(problem);
}

/**
 * The audit log of a command: none. The operations write one line per action for the service's
 * log; a command has no log stream, and its own lines on stderr already say what it did.
 */
export const COMMAND_LOG: Logger = { info: () => {}, error: () => {} };
