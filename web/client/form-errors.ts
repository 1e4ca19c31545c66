// API errors shown on forms (the home page's create form, the dashboard's dialogs): every field's
// problem at once, next to its field, in the page language; the field's hint makes way for its
// error instead of being repeated under it.
import type { MessageKey } from "../i18n/index.ts";
import { t } from "./common.ts";

/** One problem as the API reports it (`errors` items, or the answer's own code/field/error). */
export type ApiProblem = { code?: string; field?: string; error?: string };
export type ApiFailure = ApiProblem & { success?: false; errors?: ApiProblem[] };

/** The translated message for an error code; the API's English text when there is none. */
export function messageFor(code: string | undefined, fallback?: string): string {
  const key = `err_${code ?? "unknown"}` as MessageKey;
  const translated = t(key);
  if (translated !== key) return translated;
  return fallback || t("err_unknown");
}

/** Every problem of a failed answer: the `errors` list of a 400, else the one error. */
export function problemsOf(body: ApiFailure): ApiProblem[] {
  return Array.isArray(body.errors) && body.errors.length > 0 ? body.errors : [body];
}

/** One line for a failed answer that has no form to show its fields on: its first problem, translated. */
export function failureText(body: ApiFailure): string {
  const [problem] = problemsOf(body);
  return messageFor(problem?.code, problem?.error);
}

type FieldParts = { input: HTMLElement; error: HTMLElement; hint?: HTMLElement };

/** A form's fields by name, and where a problem without a field (or of an unknown one) goes. */
export class FormErrors<F extends string> {
  private readonly describedBy = new Map<F, string>();

  constructor(
    private readonly fields: Record<F, FieldParts>,
    private readonly formError: HTMLElement,
    /** The form field a problem concerns: by the API's field name (which differs between APIs), else by its code. */
    private readonly fieldOf: (problem: ApiProblem) => F | null,
  ) {
    for (const name of Object.keys(fields) as F[]) this.describedBy.set(name, fields[name].input.getAttribute("aria-describedby") ?? "");
  }

  clear(): void {
    for (const name of Object.keys(this.fields) as F[]) {
      const { input, error, hint } = this.fields[name];
      input.removeAttribute("aria-invalid");
      input.setAttribute("aria-describedby", this.describedBy.get(name) ?? "");
      error.hidden = true;
      error.textContent = "";
      if (hint) hint.hidden = false;
    }
    this.formError.hidden = true;
    this.formError.textContent = "";
  }

  /** Shows each problem (translated) by its field and focuses the first field at fault, which it returns (null: none). */
  show(problems: readonly ApiProblem[]): HTMLElement | null {
    this.clear();
    let first: HTMLElement | null = null;
    const loose: string[] = [];
    for (const problem of problems) {
      const text = messageFor(problem.code, problem.error);
      const name = this.fieldOf(problem);
      if (name === null) {
        if (!loose.includes(text)) loose.push(text);
        continue;
      }
      const { input, error, hint } = this.fields[name];
      if (!error.hidden) continue; // one message per field: the first the API found
      error.textContent = text;
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      // The error takes the hint's place (and its place in the description): said once, not twice.
      if (hint) {
        hint.hidden = true;
        input.setAttribute("aria-describedby", error.id);
      }
      first ??= input;
    }
    if (loose.length > 0) {
      this.formError.textContent = loose.join(" ");
      this.formError.hidden = false;
    }
    first?.focus();
    return first;
  }
}

const CODE_PREFIXES = [
  ["url_", "url"],
  ["title_", "title"],
  ["alias_", "custom_url"],
  ["expires_", "expires_at"],
  ["max_clicks_", "max_clicks"],
  ["tags_", "tags"],
  ["redirect_type_", "redirect_type"],
  ["valid_from_", "valid_from"],
  ["password_", "password"],
] as const;

/** The API field (as /api/create names it) a problem concerns, by its code's prefix, when the API names no field we know. */
export function fieldByCode(code: string | undefined): (typeof CODE_PREFIXES)[number][1] | null {
  return CODE_PREFIXES.find(([prefix]) => code?.startsWith(prefix))?.[1] ?? null;
}
