// A Shlink request's body: a JSON object, or a form (urlencoded, as the GNOME extension posts to
// /rest/v2/short-urls, or multipart) (docs/shlink-api.md: Requests). A body too large is our 413
// (Shlink has no type for it); every other refusal is Shlink's invalid-data.

import { MAX_BODY_BYTES, mediaType, readBodyText, wellFormedText } from "../../form-body.ts";
import { invalidData, ourProblem, OurRefusal } from "./shlink-problem.ts";

/** The fields a body holds; an empty body is no fields. Arrays in a form come as `tags[]=a&tags[]=b` or repeated `tags`. */
export async function shlinkBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) {
    if (body.status === 413) throw new OurRefusal(ourProblem(413, body.code, body.error));
    throw invalidData(body.error, []);
  }
  if (body.text.trim() === "") return {};
  const type = mediaType(request);
  if (type === "application/x-www-form-urlencoded") return formFields(new URLSearchParams(body.text));
  if (type === "multipart/form-data") return formFields(await multipart(request, body.text));
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw invalidData("The body is neither JSON nor a form that could be read.", []);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidData("The body must be a JSON object.", []);
  if (!wellFormedText(value)) throw invalidData("The body holds text that is not valid Unicode (a lone surrogate).", []);
  return value as Record<string, unknown>;
}

/** A multipart form's fields (text only: no field of Shlink's API is a file). */
async function multipart(request: Request, text: string): Promise<URLSearchParams> {
  let form: FormData;
  try {
    form = await new Response(text, { headers: { "Content-Type": request.headers.get("content-type")! } }).formData();
  } catch {
    throw invalidData("The multipart body could not be read.", []);
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form) {
    if (typeof value !== "string") throw invalidData(`${name} must be a text field, not a file.`, [name.replace(/\[\]$/, "")]);
    fields.append(name, value);
  }
  return fields;
}

/** Fields that are lists in Shlink's API: a form cannot tell a list of one from text, so one value there is a list of one. */
const LIST_FIELDS: ReadonlySet<string> = new Set(["tags"]);

/** A form's fields: `name[]`, a repeated name or a list field's name is a list; otherwise the last value. */
export function formFields(form: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    if (name.endsWith("[]")) out[name.slice(0, -2)] = values;
    else if (LIST_FIELDS.has(name)) out[name] = values;
    else out[name] = values.length > 1 ? values : values.at(-1);
  }
  return out;
}
