// The parts of n8n's runtime that n8n's Yourls node calls, standing in for n8n's workflow engine
// (n8n-core and @n8n/backend-network, which need n8n's whole server to run). The node itself, its
// request function and n8n's error classes (n8n-workflow) are the real ones (support/n8n-package.ts).
//
// The node (dist/nodes/Yourls/GenericFunctions.js) calls `this.helpers.request` with
// `{method, body: {}, qs, uri, json: true}`: n8n's legacy request helper. Sources followed:
// n8n-core 2.41.1 dist/execution-engine/node-execution-context/utils/request-helpers/
// legacy-request-adapter.js (the helper hands the options to OutboundHttp.requestLegacy), and
// @n8n/backend-network 1.15.1 dist/http/axios/legacy.js (buildAxiosConfigFromLegacyRequest: qs as
// axios `params`, the body as `data`, `Accept: application/json` for json, `content-type:
// application/json` for a body, the `User-Agent` `n8n`) and dist/http/legacy-request.js
// (executeLegacyRequest: axios's answer, or its AxiosError for a status outside 2xx given
// `statusCode`, `error` (the body) and the message "<status> - <body as JSON>"). SSRF protection is
// off in n8n's default configuration, and our server runs on 127.0.0.1, so it is not stood in.

import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { n8nYourlsFolder } from "./n8n-package.ts";

type Json = Record<string, any>;
export type NodeParameters = Record<string, unknown>;
export type N8nItem = { json: Json };

/** The Yourls node from n8n-nodes-base, the credential type's fields and n8n-workflow as the node requires it. */
export type N8nYourls = {
  /** Runs the node on one input item, as n8n's engine calls `execute`; resolves to its output, or rejects with what it threw. */
  execute(parameters: NodeParameters, credentials: { url: string; signature: string }): Promise<N8nItem[][]>;
  /** n8n-workflow's CommonJS build: the one the node's files require, so that its classes match the node's errors. */
  workflow: { NodeApiError: new (...args: any[]) => Error; NodeOperationError: new (...args: any[]) => Error };
};

export function loadN8nYourls(): N8nYourls {
  const fromNode = createRequire(join(n8nYourlsFolder(), "nodes/Yourls/Yourls.node.js"));
  const { Yourls } = fromNode("./Yourls.node.js");
  const { YourlsApi } = fromNode("../../credentials/YourlsApi.credentials.js");
  const workflow = fromNode("n8n-workflow");
  const fields: string[] = new YourlsApi().properties.map((p: { name: string }) => p.name);
  return {
    workflow,
    async execute(parameters, credentials) {
      // The credential data n8n hands the node holds the credential type's fields: signature and url.
      const data = Object.fromEntries(fields.map((name) => [name, credentials[name as keyof typeof credentials]]));
      return new Yourls().execute.call(executeFunctions(parameters, data));
    },
  };
}

/** The IExecuteFunctions the node uses: one input item, its parameters, its credentials, request and returnJsonArray. */
function executeFunctions(parameters: NodeParameters, credentials: Json) {
  const node = { id: "yourls-test", name: "Yourls", type: "n8n-nodes-base.yourls", typeVersion: 1, position: [0, 0], parameters };
  return {
    getInputData: () => [{ json: {} }],
    getNode: () => node,
    getNodeParameter(name: string) {
      if (!(name in parameters)) throw new Error(`Could not get parameter "${name}"`);
      return structuredClone(parameters[name]);
    },
    async getCredentials(type: string) {
      if (type !== "yourlsApi") throw new Error(`the node asked for credentials of type ${type}`);
      return credentials;
    },
    continueOnFail: () => false,
    helpers: { request: legacyRequest, returnJsonArray },
  };
}

/** n8n-core 2.41.1 dist/execution-engine/node-execution-context/utils/return-json-array.js. */
function returnJsonArray(data: Json | Json[]): N8nItem[] {
  return (Array.isArray(data) ? data : [data]).map((item) => (item?.json ? { ...item, json: item.json } : { json: item }));
}

type LegacyOptions = { method: string; body?: Json; qs?: Record<string, unknown>; uri: string; json?: boolean };
const IMPLEMENTED = new Set(["method", "body", "qs", "uri", "json"]);

/** axios's name for its failures: n8n-workflow's NodeApiError reads the status from an error of this name. */
class AxiosError extends Error {
  isAxiosError = true;
  [field: string]: unknown;
  constructor(message: string, code: string) {
    super(message);
    this.name = "AxiosError";
    this.code = code;
  }
}

async function legacyRequest(options: LegacyOptions): Promise<unknown> {
  // Only the options the Yourls node passes are implemented; any other would need n8n's own code.
  const unknown = Object.keys(options).filter((key) => !IMPLEMENTED.has(key));
  if (unknown.length > 0) throw new Error(`the stand-in for n8n's request helper does not implement ${unknown.join(", ")}`);
  // axios's buildURL: the serialized params after a `?` (the node's uri has none).
  const query = options.qs !== undefined && Object.keys(options.qs).length > 0 ? `?${axiosParams(options.qs)}` : "";
  const url = new URL(`${options.uri}${query}`);
  if (url.search !== query) throw new Error(`the URL parser changed the query axios would send: ${query}`);
  const headers: Record<string, string> = {};
  if (options.json === true) headers.Accept = "application/json";
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  headers["User-Agent"] = "n8n";
  const res = await send(url, options.method, headers, body);
  // axios's default transformResponse: JSON when it parses, else the text (an empty body, on success, undefined).
  let data: unknown = res.text;
  try { data = JSON.parse(res.text); } catch { /* the text, as axios leaves it */ }
  if (res.status >= 200 && res.status < 300) return data === "" ? undefined : data;
  // axios's settle (ERR_BAD_REQUEST for 4xx, ERR_BAD_RESPONSE for 5xx), then executeLegacyRequest's shaping.
  // A redirect would have been followed by axios; our API never answers one, so it fails here.
  const error = new AxiosError(`${res.status} - ${JSON.stringify(data)}`, res.status < 500 ? "ERR_BAD_REQUEST" : "ERR_BAD_RESPONSE");
  error.options = { url: options.uri, method: options.method, data: body, headers };
  throw Object.assign(error, {
    statusCode: res.status, status: res.status, error: data,
    response: { headers: res.headers, status: res.status, statusText: res.statusText },
  });
}

/** axios 1.18.0's params serializer (n8n-workflow's axios; lib/helpers/buildURL.js `encode`: encodeURIComponent, then `:` `$` `,` kept and a space as `+`). */
function axiosParams(params: Record<string, unknown>): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ":").replace(/%24/g, "$").replace(/%2C/gi, ",").replace(/%20/g, "+");
  return Object.entries(params).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `${encode(k)}=${encode(String(v))}`).join("&");
}

/** One HTTP request through node:http, as axios's Node adapter sends it (a GET may carry a body). */
function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined) {
  return new Promise<{ status: number; statusText: string; headers: IncomingHttpHeaders; text: string }>((done, fail) => {
    const req = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end(body);
  });
}
