// ShareX's custom uploader, as far as a URL shortener uses it, replayed from its source
// (github.com/ShareX/ShareX, read at e9711f2, January 2026), not copied:
// - ShareX.UploadersLib/CustomUploader/CustomUploaderItem.cs: GetRequestURL (the URL as written,
//   no parameters here), GetHeaders (each value through the syntax parser), GetContentType
//   ("application/json" for a JSON body), GetData (the name parser, then `{input}` replaced by the
//   URL JSON-encoded: ShareX.HelpersLib/Helpers/URLHelpers.cs JSONEncode, the string's JSON text
//   without its quotes), ParseResponse (the URL expression only when the answer is a success,
//   else the ErrorMessage expression);
// - ShareX.UploadersLib/CustomUploader/ShareXSyntaxParser.cs: `{name:param}` calls a function;
// - ShareX.UploadersLib/CustomUploader/Functions/CustomUploaderFunctionJson.cs: `{json:path}`
//   is `$.` + path selected from the answer (Newtonsoft SelectToken).
// Only what our file uses is implemented; anything else in it fails the test instead of passing.

/** The fields of an .sxcu that a URL shortener reads. */
export type Sxcu = {
  Version: string;
  Name?: string;
  DestinationType: string;
  RequestMethod: string;
  RequestURL: string;
  Parameters?: Record<string, string>;
  Headers?: Record<string, string>;
  Body: string;
  Data?: string;
  URL: string;
  ErrorMessage?: string;
};

/** The request ShareX sends to shorten `input`, once the person has put their key in place of `placeholder`. */
export function sharexRequest(file: Sxcu, input: string, placeholder: string, key: string): Request {
  if (file.Parameters && Object.keys(file.Parameters).length > 0) throw new Error("parameters are not replayed here");
  if (file.Body !== "JSON") throw new Error(`body ${file.Body} is not replayed here`);
  const headers = new Headers({ "Content-Type": "application/json", "User-Agent": "ShareX/19.0.2" });
  for (const [name, value] of Object.entries(file.Headers ?? {})) {
    if (/[{}%]/.test(value)) throw new Error(`header ${name}: syntax is not replayed here`);
    headers.set(name, value.replaceAll(placeholder, key));
  }
  const data = file.Data ?? "";
  // The name parser would read `%…` (dates and the like); our body has none to read.
  if (data.includes("%")) throw new Error("the name parser is not replayed here");
  const body = data.replace(/\{input\}/gi, JSON.stringify(input).slice(1, -1));
  return new Request(file.RequestURL, { method: file.RequestMethod, headers, body });
}

/** `{json:path}` over an answer's text: `$.path`, dots and [index] only. */
function jsonPath(text: string, path: string): string | null {
  let value: unknown = JSON.parse(text);
  for (const part of path.replace(/^\$\./, "").split(/\.|(?=\[)/)) {
    const index = /^\[(\d+)\]$/.exec(part);
    if (value === null || typeof value !== "object") return null;
    value = index ? (value as unknown[])[Number(index[1])] : (value as Record<string, unknown>)[part];
  }
  return value === undefined || value === null ? null : String(value);
}

/** One expression of the URL or ErrorMessage field: the whole field is one `{json:…}`. */
function evaluate(expression: string, answer: string): string | null {
  const json = /^\{json:([^{}|]+)\}$/.exec(expression);
  if (!json) throw new Error(`expression ${expression} is not replayed here`);
  return jsonPath(answer, json[1]!);
}

/** What ShareX makes of the answer: the short URL on a success, else its error message. */
export async function sharexResult(file: Sxcu, res: Response): Promise<{ url: string | null; error: string | null }> {
  const text = await res.text();
  if (res.ok) return { url: evaluate(file.URL, text), error: null };
  return { url: null, error: file.ErrorMessage ? evaluate(file.ErrorMessage, text) : null };
}
