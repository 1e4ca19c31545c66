// Says on the service's log when a webhook starts failing, delivers again, or is turned off
// (docs/webhooks.md: Webhooks, "States"): once per change of state, not per attempt (a day of retries
// is a dozen attempts), so that a receiver that is gone is noticed without flooding the log. Only
// the receiver's host is named: a webhook's path and query are often its credential (Slack's,
// n8n's), and logs travel further than the database.

import type { Logger } from "../log.ts";
import type { AttemptResult } from "./store.ts";

export type FailureLog = {
  /** An attempt of the webhook's delivery was recorded with this result. */
  attempted(webhook: { id: number; url: string }, result: AttemptResult): void;
};

/** What this process last said of each webhook: failing or not (a restart says it again if it still fails). */
export function createFailureLog(log: Logger): FailureLog {
  const failing = new Set<number>();
  return {
    attempted(webhook, result) {
      const host = hostOf(webhook.url);
      const reason = withoutPath(result.error ?? (result.responseCode === null ? "no answer" : `answered ${result.responseCode}`), webhook.url);
      if (result.disable !== null) {
        failing.delete(webhook.id);
        log.error(`webhook ${webhook.id} turned off: ${result.disable}; \`shortener webhook enable ${webhook.id}\` or the dashboard starts it again`, { webhook: webhook.id, host, reason });
      } else if (result.state === "delivered") {
        if (failing.delete(webhook.id)) log.info(`webhook ${webhook.id} delivers again`, { webhook: webhook.id, host });
      } else if (!failing.has(webhook.id)) {
        failing.add(webhook.id);
        log.error(`webhook ${webhook.id} is failing: ${reason}; tried again with backoff, turned off after 24 hours of failures`, { webhook: webhook.id, host, reason });
      }
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unreadable)";
  }
}

/** An error's text with the URL, should it quote it, cut down to its origin. */
function withoutPath(text: string, url: string): string {
  try {
    const u = new URL(url);
    let out = text.split(url).join(u.origin);
    for (const part of [`${u.pathname}${u.search}`, u.search, u.pathname]) if (part.length > 1) out = out.split(part).join("");
    return out;
  } catch {
    return text;
  }
}
