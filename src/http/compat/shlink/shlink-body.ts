// A Shlink request's body: a JSON object, or a urlencoded form as the GNOME extension posts to
// /rest/v2/short-urls (docs/shlink-api.md: Requests). Every refusal is Shlink's invalid-data.

import { MAX_BODY_BYTES, mediaType, readBodyText, wellFormedText } from "../../form-body.ts";
import { invalidData } from "./shlink-problem.ts";

/** The fields a body holds; an empty body is no fields. Arrays in a form come as `tags[]=a&tags[]=b` or repeated `tags`. */
export async function shlinkBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) throw invalidData(body.error, []);
  if (body.text.trim() === "") return {};
  const type = mediaType(request);
  if (type === "application/x-www-form-urlencoded") return formFields(new URLSearchParams(body.text));
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw invalidData("The body is neither JSON nor a urlencoded form that could be read.", []);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidData("The body must be a JSON object.", []);
  if (!wellFormedText(value)) throw invalidData("The body holds text that is not valid Unicode (a lone surrogate).", []);
  return value as Record<string, unknown>;
}

/** A form's fields: `name[]` (or a repeated name) is a list; otherwise the last value. */
export function formFields(form: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    if (name.endsWith("[]")) out[name.slice(0, -2)] = values;
    else out[name] = values.length > 1 ? values : values.at(-1);
  }
  return out;
}
