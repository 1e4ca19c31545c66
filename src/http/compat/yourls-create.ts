// action=shorturl (docs/yourls-api.md: shorturl): YOURLS's url, keyword and title, made into a
// link by our create operation (src/ops/links/create.ts: who may, the flood limit, the URL and
// keyword rules, the audit line), answered as YOURLS's yourls_add_new_link answers.

import type { Actor } from "../../auth/policy.ts";
import { DEFAULT_DOMAIN } from "../../domains/domain.ts";
import { fitTitle } from "../../links/title.ts";
import type { Link } from "../../links/link.ts";
import { admitCreate, create } from "../../ops/links/create.ts";
import { reusableLink } from "../../ops/links/reuse.ts";
import type { Problem } from "../../ops/outcome.ts";
import { isStorageFailure } from "../../db/errors.ts";
import { ownHostsOf } from "../destination-rules.ts";
import { requestClient } from "../request-origin.ts";
import { PLEASE_LOG_IN, refusal, type YourlsParams } from "./yourls-auth.ts";
import { yourlsDate, yourlsTitle, type YourlsContext, type YourlsReply } from "./yourls-link.ts";

/** How far the asker's links whose URL holds the one asked for are looked through for it (pages of links). */

export async function shortenAction(asker: Actor, param: YourlsParams, ctx: YourlsContext): Promise<YourlsReply> {
  const { request, server, deps } = ctx;
  const client = requestClient(server, request, deps.trusted);
  const admitted = admitCreate(asker, client, deps);
  if (!admitted.ok) return admittance(admitted.problem);
  const [url, keyword, title] = [param("url") ?? "", param("keyword") ?? "", param("title") ?? ""];
  const ownHosts = ownHostsOf(deps, ctx.base, request, server);
  // A URL the asker has a link to already, and no keyword asked for: that link again, as YOURLS
  // answers with its default YOURLS_UNIQUE_URLS (docs/yourls-api.md: A URL shortened twice).
  if (keyword === "" && asker !== null) {
    const existing = await reusableLink(asker, { url, domain: DEFAULT_DOMAIN, ownHosts }, deps);
    if (existing !== null) return { answer: alreadyMade(existing, ctx) };
  }
  // YOURLS keeps any title, cut to size; ours is bounded the same way everywhere (src/links/title.ts).
  const fields = { url, custom_url: keyword === "" ? undefined : keyword, title: fitTitle(title) ?? undefined };
  let created;
  try {
    created = await create(asker, { fields, ownHosts }, deps);
  } catch (err) {
    if (!isStorageFailure(err)) throw err;
    deps.log.error("creating a link failed: storage unavailable", { via: "yourls-api" });
    return { answer: failed("error:db", "Error saving url to database: the database cannot store changes right now; try again later", "503") };
  }
  if (!created.ok) return { answer: createProblem(created.problem, keyword) };
  const link = created.value;
  const shorturl = ctx.shortUrl(link);
  return {
    answer: {
      status: "success", code: "", message: `${trimmed(link.url)} added to database`, errorCode: "", statusCode: "200",
      url: { keyword: link.id, url: link.url, title: yourlsTitle(link), date: yourlsDate(link.createdAt), ip: client },
      title: yourlsTitle(link), shorturl, simple: shorturl,
    },
  };
}

/** The refusal of admitCreate: nobody known where creating needs a key, or the flood limit. */
function admittance(problem: Problem): YourlsReply {
  if (problem.code === "auth_required") return refusal(PLEASE_LOG_IN);
  const wait = String(problem.retryAfterSeconds ?? 60);
  return { answer: failed("error:flood", `Too many URLs added too fast. Slow down please (try again in ${wait} s)`, "429"), headers: { "Retry-After": wait } };
}

/** YOURLS's error:url: the URL has a short URL already, given with it (HTTP 200: see docs/yourls-api.md). */
function alreadyMade(link: Link, ctx: YourlsContext): YourlsReply["answer"] {
  const shorturl = ctx.shortUrl(link);
  return {
    status: "fail", code: "error:url",
    url: { keyword: link.id, url: link.url, title: yourlsTitle(link), date: yourlsDate(link.createdAt), ip: "", clicks: String(link.totalClicks) },
    message: `${trimmed(link.url)} already exists in database (short URL: ${shorturl.replace(/^https?:\/\//, "")})`,
    title: yourlsTitle(link), shorturl, errorCode: "", statusCode: "200", simple: shorturl,
  };
}

/** A create's problem in YOURLS's words: error:nourl, error:noloop, error:keyword; our reason in the message. */
function createProblem(problem: Problem, keyword: string): YourlsReply["answer"] {
  const why = problem.message.replaceAll("custom_url", "keyword");
  if (problem.code === "url_missing") return failed("error:nourl", "Missing or malformed URL");
  if (problem.code === "url_self") return failed("error:noloop", `URL is a short URL: ${why}`);
  if (problem.code.startsWith("url_")) return failed("error:nourl", `Missing or malformed URL: ${why}`);
  if (problem.code === "alias_taken" || problem.code === "alias_retired") return failed("error:keyword", `Short URL ${keyword} already exists in database or is reserved: ${why}`);
  if (problem.code.startsWith("alias_")) return failed("error:keyword", `Short URL ${keyword} cannot be used: ${why}`);
  return failed(`error:${problem.code}`, why);
}

/** A failed shorturl as YOURLS gives one: status fail, its code, the message, errorCode and statusCode. */
function failed(code: string, message: string, status = "400"): YourlsReply["answer"] {
  return { status: "fail", code, message, errorCode: status, statusCode: status, simple: "" };
}

/** A URL in a message: at most 100 characters, as YOURLS trims it. */
function trimmed(url: string): string {
  return url.length > 100 ? `${url.slice(0, 90)}[...]` : url;
}
