// Reads the fields of a create request from multipart/form-data (the spec's type),
// application/x-www-form-urlencoded or JSON, within a byte limit. Forms give text; JSON may also
// give a number for a count and an array for a list.

/** Larger than any valid request (a 2,048-character URL, a 30-character alias, multipart framing). */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * text: a string; count: a string or a JSON number; list: a string, repeated form fields or a JSON
 * array; flag: a string or a JSON boolean; json: a string, or in JSON any value (rules, variants).
 */
export type FieldKind = "text" | "count" | "list" | "flag" | "json";
export type FieldValue = string | number | boolean | unknown[] | Record<string, unknown>;
export type FormFields = Record<string, FieldValue | undefined>;

/** `given`: every field name the body holds, those not asked for included (a create refuses them: src/links/field-names.ts). */
export type BodyResult =
  | { ok: true; fields: FormFields; given: string[]; json: boolean }
  | { ok: false; status: 400 | 413 | 415; code: "bad_request" | "body_too_large" | "unsupported_media_type"; error: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads and parses the body; every client mistake becomes a typed failure, never a throw. */
export async function readFormFields(request: Request, kinds: Record<string, FieldKind>): Promise<BodyResult> {
  const type = mediaType(request);
  const kind = type === "multipart/form-data" ? "multipart" : type === "application/x-www-form-urlencoded" ? "urlencoded" : type === "application/json" ? "json" : null;
  if (!kind) {
    return { ok: false, status: 415, code: "unsupported_media_type", error: "send multipart/form-data, application/x-www-form-urlencoded or application/json" };
  }
  let bytes: Uint8Array<ArrayBuffer> | null;
  try {
    bytes = await readLimited(request, MAX_BODY_BYTES);
  } catch {
    // The client hung up mid-body or sent broken chunked framing: its mistake, not our bug, so no
    // error log line (the answer usually reaches nobody, but it must not be a 500 either).
    return { ok: false, status: 400, code: "bad_request", error: "the request body could not be read" };
  }
  if (bytes === null) return { ok: false, status: 413, code: "body_too_large", error: `request body is larger than ${MAX_BODY_BYTES} bytes` };
  try {
    if (kind === "json") return fromJson(utf8.decode(bytes), kinds);
    if (kind === "urlencoded") return pick(new URLSearchParams(utf8.decode(bytes)), kinds);
    const form = await new Response(bytes, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
    return pick(form, kinds);
  } catch {
    return { ok: false, status: 400, code: "bad_request", error: `the ${kind} body could not be parsed` };
  }
}

type FieldSource = { getAll(name: string): unknown[]; keys(): Iterable<string> };

function pick(source: FieldSource, kinds: Record<string, FieldKind>): BodyResult {
  const fields: FormFields = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const values = source.getAll(name);
    if (values.length === 0) continue;
    for (const value of values) {
      if (typeof value !== "string") return { ok: false, status: 400, code: "bad_request", error: `${name} must be a text field, not a file` };
      if (value.includes("\uFFFD")) return { ok: false, status: 400, code: "bad_request", error: `${name} is not valid UTF-8` };
    }
    // A list may come as repeated fields (checkboxes); anything else is its first value.
    fields[name] = kind === "list" && values.length > 1 ? values : (values[0] as string);
  }
  return { ok: true, fields, given: [...new Set(source.keys())], json: false };
}

const JSON_KINDS: Record<FieldKind, (v: unknown) => boolean> = {
  text: (v) => typeof v === "string",
  count: (v) => typeof v === "string" || typeof v === "number",
  list: (v) => typeof v === "string" || Array.isArray(v),
  flag: (v) => typeof v === "string" || typeof v === "boolean",
  json: () => true,
};
const KIND_WORDS: Record<FieldKind, string> = { text: "a string", count: "a number", list: "an array of strings", flag: "true or false", json: "JSON" };

function fromJson(text: string, kinds: Record<string, FieldKind>): BodyResult {
  const body: unknown = JSON.parse(text);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, status: 400, code: "bad_request", error: "the JSON body must be an object" };
  }
  const record = body as Record<string, unknown>;
  const fields: FormFields = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const value = record[name];
    if (value === undefined || value === null) continue;
    if (!JSON_KINDS[kind](value)) return { ok: false, status: 400, code: "bad_request", error: `${name} must be ${KIND_WORDS[kind]}` };
    if ((typeof value === "string" && value.includes("\uFFFD")) || !wellFormedText(value)) return { ok: false, status: 400, code: "bad_request", error: `${name} is not valid UTF-8` };
    fields[name] = value as FieldValue;
  }
  return { ok: true, fields, given: Object.keys(record), json: true };
}

export type TextBody = { ok: true; text: string } | { ok: false; status: 400 | 413; code: "bad_request" | "body_too_large"; error: string };

/** The body as UTF-8 text within limit bytes; a client's mistake is a typed failure, never a throw. */
export async function readBodyText(request: Request, limit: number): Promise<TextBody> {
  let bytes: Uint8Array<ArrayBuffer> | null;
  try {
    bytes = await readLimited(request, limit);
  } catch {
    return { ok: false, status: 400, code: "bad_request", error: "the request body could not be read" };
  }
  if (bytes === null) return { ok: false, status: 413, code: "body_too_large", error: `request body is larger than ${limit} bytes` };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, status: 400, code: "bad_request", error: "the request body is not valid UTF-8" };
  }
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; code: "bad_request" | "body_too_large" | "unsupported_media_type"; error: string };

/** An application/json body within limit bytes, parsed; a client's mistake is a typed failure, never a throw. */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBody> {
  if (mediaType(request) !== "application/json") return { ok: false, status: 415, code: "unsupported_media_type", error: "send application/json" };
  const body = await readBodyText(request, limit);
  if (!body.ok) return body;
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, status: 400, code: "bad_request", error: "the body is not JSON" };
  }
}

/** The media type of a request without parameters, lower-case ("" when absent). */
export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * False when a JSON value holds a string with a lone surrogate ("\ud800" escapes): it has no UTF-8
 * form and would be stored as U+FFFD, a different value from the one sent.
 */
export function wellFormedText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.isWellFormed();
  if (depth > 3 || typeof value !== "object" || value === null) return true;
  return (Array.isArray(value) ? value : Object.values(value)).every((v) => wellFormedText(v, depth + 1));
}

/** The whole body, or null as soon as it passes limit bytes (declared or streamed). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const length = request.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  // A declared length within the limit bounds what the server reads: take it in one native read.
  // Streaming it chunk by chunk cost about a third of a create's CPU (measured with --cpu-prof).
  if (length !== null && Number.isInteger(declared) && request.headers.get("transfer-encoding") === null) return await request.bytes();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
