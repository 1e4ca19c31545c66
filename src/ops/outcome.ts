// What an operation answers (docs/architecture.md: Operations): its value, or a problem with the
// error vocabulary's code (src/errors.ts). Operations know nothing of HTTP or the command line;
// each surface turns a problem into its own format (src/http/problems.ts, src/cli/problems.ts).

import type { ErrorCode, ErrorField, FieldProblem } from "../errors.ts";

/**
 * Why an operation did not do what it was asked. `message` is for people; `fields`: every field
 * problem of a request that had several; `retryAfterSeconds`: when trying again makes sense.
 */
export type Problem = {
  code: ErrorCode;
  message: string;
  field?: ErrorField;
  fields?: readonly FieldProblem[];
  retryAfterSeconds?: number;
};

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

export function done<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function refused(code: ErrorCode, message: string, field?: ErrorField): { ok: false; problem: Problem } {
  return { ok: false, problem: field === undefined ? { code, message } : { code, message, field } };
}

/** A request's several field problems: the first is the problem, all of them are listed. */
export function refusedFields(fields: readonly FieldProblem[]): { ok: false; problem: Problem } {
  const [first] = fields;
  if (first === undefined) throw new Error("refusedFields needs a problem");
  return { ok: false, problem: { code: first.code, message: first.error, field: first.field, fields } };
}
