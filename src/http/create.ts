// POST /api/create: rate limit, read the form, create the link, answer with its two URLs.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import { createLink } from "../links/create.ts";
import type { LinkStore } from "../links/store.ts";
import type { Logger } from "../log.ts";
import type { TrustedProxies } from "../visits/client-ip.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ClickRecorder } from "../visits/recorder.ts";
import { readFormFields } from "./form-body.ts";
import { publicBase, requestClient, type PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";

export type CreateDeps = {
  config: Config;
  links: LinkStore;
  trusted: TrustedProxies;
  limiter: RateLimiter;
  log: Logger;
  now: () => number;
  recorder: Pick<ClickRecorder, "hurry">;
};

/** How long the click thread's connection itself waits for SQLite's write lock (set in main.ts). */
export const CLICK_THREAD_BUSY_TIMEOUT_MS = 50;
// How long a create keeps retrying, between short sleeps, before it answers 503; what the
// connection's own busy timeout was before (a backup or a slow disk can hold the lock that long).
const WRITE_LOCK_PATIENCE_MS = 5_000;
const RETRY_AFTER_MS = 10;

export async function handleCreate(request: Request, server: PeerServer, deps: CreateDeps): Promise<Response> {
  const now = deps.now();
  const verdict = deps.limiter.take(requestClient(server, request, deps.trusted), now);
  if (!verdict.allowed) {
    return apiError(429, "rate_limited", `too many links created from your address; try again in ${verdict.retryAfterSeconds} s`, undefined, {
      "Retry-After": String(verdict.retryAfterSeconds),
    });
  }
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return apiError(400, "bad_request", "the Host header is missing or not a valid host name");

  const body = await readFormFields(request, ["url", "custom_url"]);
  if (!body.ok) return apiError(body.status, body.code, body.error);

  const ownHosts = [new URL(base).host, request.headers.get("host") ?? ""].filter((h) => h !== "");
  const attempt = () => createLink(deps.links, { url: body.fields.url, customUrl: body.fields.custom_url, ownHosts, now });
  let result = attempt();
  // The write lock is taken, most likely by the recorder thread at idle priority: ask it to hurry,
  // and wait without blocking the event loop, so that clicks keep being answered meanwhile.
  const giveUpAt = Date.now() + WRITE_LOCK_PATIENCE_MS;
  while (!result.ok && result.lockBusy === true && Date.now() < giveUpAt) {
    deps.recorder.hurry();
    await Bun.sleep(RETRY_AFTER_MS);
    result = attempt();
  }
  if (!result.ok) {
    // The operator must learn that the disk refuses writes; the client only gets the 503.
    if (result.code === "storage_unavailable") deps.log.error("creating a link failed: storage unavailable", { cause: result.cause ?? "" });
    return apiError(result.status, result.code, result.error, result.field);
  }

  const lang = pickLanguage(request.headers.get("accept-language"));
  return json(201, {
    success: true,
    data: { shortUrl: `${base}/${result.link.id}`, statsUrl: `${base}/${lang}/stats/${result.link.id}` },
  });
}
