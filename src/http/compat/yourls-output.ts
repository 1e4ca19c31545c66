// The four answer formats of the YOURLS API (docs/yourls-api.md: Formats), as YOURLS's own
// yourls_api_output writes them: the HTTP status from the answer's statusCode (else its
// errorCode, else 200); xml (the default), json, jsonp (a callback of safe characters only) and
// simple, the bare `simple` text, which is also what any other format name gets, as in YOURLS.

/** One answer: its fields in YOURLS's order; `simple`, the text of the simple format, is never a field of the others. */
export type YourlsAnswer = Record<string, unknown> & { simple?: string };

/** What the request asked for: a format name (absent: xml) and a JSONP callback (absent: null). */
export type YourlsFormat = { format: string; callback: string | null };

const XML_PROLOGUE = '<?xml version="1.0" encoding="UTF-8"?>';

/** A JSONP callback YOURLS would call: letters, digits, `_`, `$` and `.`, and no `\uXXXX`-like escape smuggled in. */
export function safeCallback(callback: string): boolean {
  return /^[a-zA-Z0-9_$.]+$/.test(callback) && !/u[0-9a-fA-F]{4}/.test(callback);
}

export function yourlsResponse(answer: YourlsAnswer, asked: YourlsFormat, headers: Record<string, string> = {}): Response {
  const { simple, ...fields } = answer;
  // YOURLS echoes the callback in the answer itself, in every format.
  if (asked.callback !== null) fields.callback = asked.callback;
  const status = statusOf(fields);
  const plain = (body: string, type: string, code = status) => new Response(body, { status: code, headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "no-store", ...headers } });
  switch (asked.format) {
    case "jsonp":
      if (asked.callback === null || !safeCallback(asked.callback)) return plain(JSON.stringify({ errorCode: "400", error: "Invalid callback parameter" }), "application/javascript", 400);
      return plain(`${asked.callback}(${scriptSafe(JSON.stringify(fields))})`, "application/javascript");
    case "json":
      return plain(JSON.stringify(fields), "application/json");
    case "xml":
      return plain(xmlDocument(fields), "application/xml");
    default:
      return plain(simple ?? "", "text/plain");
  }
}

/** statusCode, else errorCode, else 200; a code that is no HTTP status is 200 (YOURLS sends what it has; we send only what HTTP knows). */
function statusOf(fields: Record<string, unknown>): number {
  const code = Number(fields.statusCode || fields.errorCode || 200);
  return Number.isInteger(code) && code >= 200 && code <= 599 ? code : 200;
}

/** JSON inside a script: the line separators and `<` escaped, so that no `</script>` or line break can end it early. */
function scriptSafe(text: string): string {
  return text.replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The answer as YOURLS's XML: a `<root>` element, one child per field, nested for objects, empty
 * for null. On one line after the prologue: the YOURLS Firefox extension finds the version with a
 * regular expression whose `.` does not cross a line break (docs/yourls-api.md: Formats).
 */
export function xmlDocument(fields: Record<string, unknown>): string {
  return `${XML_PROLOGUE}<root>${xmlChildren(fields)}</root>`;
}

function xmlChildren(fields: Record<string, unknown>): string {
  let out = "";
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const tag = name.replace(/ /g, "_");
    if (value === null || value === "") out += `<${tag}/>`;
    else if (typeof value === "object") out += `<${tag}>${xmlChildren(value as Record<string, unknown>)}</${tag}>`;
    else out += `<${tag}>${xmlText(String(value))}</${tag}>`;
  }
  return out;
}

/** Text as XML character data: the five markup characters escaped, characters XML 1.0 cannot hold dropped. */
function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
