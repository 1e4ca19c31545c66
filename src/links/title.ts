// STAND-IN until the lead's title model lands in main (contract: src/links/title.ts); removed
// before `git merge main`, which brings the real one.

import type { ErrorField, FieldProblem } from "../errors.ts";

export const MAX_TITLE_LENGTH = 500;

export function fitTitle(text: string): string | null {
  // eslint-disable-next-line no-control-regex
  const collapsed = text.replace(/\s+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  const cut = [...collapsed].slice(0, MAX_TITLE_LENGTH).join("").trim();
  return cut === "" ? null : cut;
}

export function parseTitle(value: unknown, field: ErrorField, problems: FieldProblem[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  if (typeof value !== "string") {
    problems.push({ code: "bad_request", field, error: "title must be text" });
    return null;
  }
  const collapsed = value.replace(/\s+/g, " ").trim();
  if ([...collapsed].length > MAX_TITLE_LENGTH) problems.push({ code: "bad_request", field, error: "title is too long" });
  return fitTitle(value);
}
