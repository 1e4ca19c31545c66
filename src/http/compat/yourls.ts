// /yourls-api.php (docs/yourls-api.md: The YOURLS API): YOURLS's API for the clients people bring
// along (ShareX, n8n, browser extensions), translated to our operations; it decides nothing of its
// own. GET or POST (urlencoded, multipart), the parameters read as PHP's $_REQUEST reads them, the
// answer in the format asked for. Off with --compat (then the path is the ordinary 404 page).

import { Elysia } from "elysia";
import { readFormFields, type FieldKind } from "../form-body.ts";
import { publicBase, type PeerServer } from "../request-origin.ts";
import { yourlsAsker, type YourlsParams } from "./yourls-auth.ts";
import { shortenAction } from "./yourls-create.ts";
import { yourlsContext, type YourlsDeps, type YourlsReply } from "./yourls-link.ts";
import { dbStatsAction, expandAction, statsAction, urlStatsAction, versionAction } from "./yourls-reads.ts";
import { yourlsResponse, type YourlsFormat } from "./yourls-output.ts";
import type { Actor } from "../../auth/policy.ts";
import { NO_HOST, storageFailureAnswer } from "./peer-failure.ts";
import type { Config } from "../../config.ts";

export const YOURLS_PATH = "/yourls-api.php";

type Ours = (request: Request, server: PeerServer, answer: () => Promise<Response>) => Promise<Response> | Response;

/** Every parameter any action reads; a body's other fields are not read (as PHP reads only what a script asks for). */
const PARAMS = ["action", "format", "callback", "jsonp", "signature", "timestamp", "username", "password", "url", "keyword", "title", "shorturl", "filter", "limit", "start", "db"] as const;
const KINDS: Record<string, FieldKind> = Object.fromEntries(PARAMS.map((name) => [name, "text"]));

type Action = (asker: Actor, param: YourlsParams, ctx: ReturnType<typeof yourlsContext>) => Promise<YourlsReply> | YourlsReply;
const ACTIONS: Record<string, Action> = {
  shorturl: shortenAction,
  expand: expandAction,
  "url-stats": urlStatsAction,
  stats: statsAction,
  "db-stats": (asker, _param, ctx) => dbStatsAction(asker, ctx),
  version: (asker, param) => versionAction(asker, param),
};

/** The route, mounted by src/app.ts through `ours` (a request addressed to this service), when --compat has yourls. */
export function yourlsApi(deps: YourlsDeps & { config: Config }, ours: Ours) {
  const app = new Elysia();
  if (!deps.config.compat.yourls) return app;
  // The guard's 421 (not addressed to this service) in YOURLS's shape too, in the query's format.
  const handle = async ({ request, server }: { request: Request; server: PeerServer }) => {
    const answer = await ours(request, server, () => handleYourls(request, server, deps));
    return answer.status === 421 ? yourlsResponse(failure("421", MISDIRECTED), queryFormat(request)) : answer;
  };
  return app.get(YOURLS_PATH, handle).post(YOURLS_PATH, handle, { parse: "none" });
}

const MISDIRECTED = "This request is not addressed to this service: use its own address";

/** A YOURLS failure whose message is also its simple answer. */
const failure = (errorCode: string, message: string) => ({ errorCode, message, simple: message });

/** The format the query asks for (a body may be unread or unreadable). */
function queryFormat(request: Request): YourlsFormat {
  const query = new URL(request.url).searchParams;
  return { format: query.get("format") ?? "xml", callback: query.get("callback") ?? query.get("jsonp") };
}

export async function handleYourls(request: Request, server: PeerServer, deps: YourlsDeps): Promise<Response> {
  const read = await yourlsParams(request);
  // A body that cannot be read still has its query: the format asked for there.
  const query = new URL(request.url).searchParams;
  const param: YourlsParams = read.ok ? read.param : (name) => query.get(name);
  const asked: YourlsFormat = { format: param("format") ?? "xml", callback: param("callback") ?? param("jsonp") };
  if (!read.ok) return yourlsResponse(failure(read.status, read.error), asked);
  try {
    return await answerYourls(param, asked, request, server, deps);
  } catch (err) {
    // The database away (the key check reads it too) is the operator's trouble for a while: said in YOURLS's shape.
    return storageFailureAnswer(err, request, deps.log, (message) => yourlsResponse(failure("503", message), asked));
  }
}

/** The action's answer, once the parameters are read: who asks, then what. */
async function answerYourls(param: YourlsParams, asked: YourlsFormat, request: Request, server: PeerServer, deps: YourlsDeps): Promise<Response> {
  const who = await yourlsAsker(param, request, server, deps);
  if (!who.ok) return yourlsResponse(who.answer, asked, who.headers);
  const action = ACTIONS[param("action") ?? ""];
  if (action === undefined) {
    return yourlsResponse(failure("400", 'Unknown or missing "action" parameter'), asked);
  }
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return yourlsResponse(failure("400", NO_HOST), asked);
  const reply = await action(who.principal, param, yourlsContext(request, server, deps, base));
  return yourlsResponse(reply.answer, asked, reply.headers);
}

type ReadParams = { ok: true; param: YourlsParams } | { ok: false; status: string; error: string };

/** The query's parameters, and a POST's form body's over them (PHP's request_order GP); a body of another type is not read. */
async function yourlsParams(request: Request): Promise<ReadParams> {
  const query = new URL(request.url).searchParams;
  // As a body's fields are (src/http/form-body.ts): bytes that are not UTF-8 are refused, not stored as U+FFFD.
  for (const [name, value] of query) {
    if ((PARAMS as readonly string[]).includes(name) && value.includes("\uFFFD")) return { ok: false, status: "400", error: `${name} is not valid UTF-8` };
  }
  let body: Record<string, unknown> = {};
  if (request.method === "POST") {
    const form = await readFormFields(request, KINDS);
    if (!form.ok && form.status !== 415) return { ok: false, status: String(form.status), error: form.error };
    if (form.ok) body = form.fields;
  }
  return {
    ok: true,
    param: (name) => {
      const given = body[name];
      if (typeof given === "string") return given;
      return query.get(name);
    },
  };
}
