// `shortener webhook add|list|remove|enable`: webhooks from the command line (docs/webhooks.md: Webhooks),
// against the same database as the service. A running service hears of a change within a second
// (its delivery thread reads the webhooks every tick). The secret is printed once, on stdout alone.

import { openEvents } from "../db/open-storage.ts";
import { commandLeave } from "../events/webhook-leave.ts";
import type { InstanceRegistry } from "../instances/registry.ts";
import { EVENT_TYPES, isEventType, webhookStatus, type EventType, type WebhookSummary } from "../events/types.ts";
import { readBlocklist } from "../links/blocklist-file.ts";
import { looksLikeId } from "../links/alias.ts";
import { parseTags } from "../links/options.ts";
import type { Config } from "../config.ts";
import { STDIO, table, when, type Output } from "./table.ts";
import type { DatabaseLocator } from "./database.ts";
import { didYouMean } from "./suggest.ts";
import { withOpened } from "./accounts.ts";
import { OPERATOR } from "../auth/policy.ts";
import type { ReceiverRules, WebhooksDeps } from "../ops/webhooks/access.ts";
import { createWebhook } from "../ops/webhooks/create.ts";
import { listWebhooks } from "../ops/webhooks/list.ts";
import { changeWebhook } from "../ops/webhooks/change.ts";
import { removeWebhook } from "../ops/webhooks/remove.ts";
import { COMMAND_LOG, sayProblem } from "./problems.ts";

type NewHook = { url: string; events: EventType[]; linkId: string | null; tag: string | null };

const USAGE = "usage: shortener webhook add URL --events TYPE,… [--link ID] [--tag TAG] | webhook list | webhook remove ID | webhook enable ID";

/** Runs a webhook subcommand; returns the exit code (2 for a usage error). */
export async function runWebhookCommand(config: Config, database: DatabaseLocator, databasePassword: string | null, args: readonly string[], flags: Record<string, string>, now = Date.now(), io: Output = STDIO): Promise<number> {
  const [action, target, ...extra] = args;
  const usage = (why: string) => {
    io.err(`shortener: ${why} (${USAGE})`);
    return 2;
  };
  if (extra.length > 0) return usage(`unexpected argument ${extra[0]}`);
  if (action !== "add" && (flags.events !== undefined || flags.link !== undefined || flags.tag !== undefined)) return usage("--events, --link and --tag belong to webhook add");
  if (action === "list" && target !== undefined) return usage("webhook list takes no argument");
  if ((action === "remove" || action === "enable") && !/^[1-9]\d{0,15}$/.test(target ?? "")) return usage(`webhook ${action} needs a webhook's id (see webhook list)`);
  let add: NewHook | null = null;
  if (action === "add") {
    if (target === undefined) return usage("webhook add needs the URL to post to");
    const events = (flags.events ?? "").split(",").map((e) => e.trim()).filter(Boolean);
    if (events.length === 0 || !events.every(isEventType)) return usage(`--events must be one or more of ${EVENT_TYPES.join(", ")}, comma-separated`);
    if (flags.link !== undefined && !looksLikeId(flags.link)) return usage("--link must be a link's id");
    const tag = flags.tag === undefined ? null : parseTags([flags.tag]);
    if (tag !== null && !tag.ok) return usage("--tag must be one tag: 1 to 30 letters, digits, hyphens or underscores");
    add = { url: target, events: [...new Set(events as EventType[])], linkId: flags.link ?? null, tag: tag === null ? null : tag.value[0]! };
  } else if (action !== "list" && action !== "remove" && action !== "enable") return usage(action === undefined ? "webhook needs an action" : `unknown webhook action ${action}${didYouMean(action, ["add", "list", "remove", "enable"])}`);

  return withOpened(database, (location) => openEvents(location, databasePassword, false), io, async (opened, where) => {
    // The running service reads the webhooks every tick: nothing to tell it.
    const deps: WebhooksDeps = { events: opened.events, links: opened.links, log: COMMAND_LOG, now: () => now, webhooksChanged: async () => {} };
    if (add !== null) return await addWebhook(add, receiverRules(config, opened, now), deps, io, where);
    if (action === "list") {
      const listed = await listWebhooks(OPERATOR, null, deps);
      if (!listed.ok) return sayProblem(listed.problem, io, where);
      const rows = listed.value.map((w) => [
        String(w.id), w.url, w.events.join(","), w.linkId !== null ? `link ${w.linkId}` : w.tag !== null ? `tag ${w.tag}` : "every link",
        stateOf(w), String(w.pending), w.lastDelivery === null ? "-" : `${w.lastDelivery.state} ${when(w.lastDelivery.at)}`,
      ]);
      for (const line of table([["ID", "URL", "EVENTS", "FOR", "STATE", "PENDING", "LAST"], ...rows])) io.out(line);
      return 0;
    }
    const id = Number(target);
    const changed = action === "remove"
      ? await removeWebhook(OPERATOR, { id }, deps)
      : await changeWebhook(OPERATOR, { id, fields: { enabled: true } }, { ...deps, rules: receiverRules(config, opened, now) });
    if (!changed.ok) return sayProblem(changed.problem, io, where);
    io.err(`shortener: webhook ${id} in ${where} ${action === "remove" ? "removed, with its delivery log" : "enabled; its waiting deliveries go out again"}`);
    return 0;
  });
}

/**
 * What the service that uses this database would post to: a special-purpose address only when that
 * service allows it (src/events/webhook-leave.ts); its own hosts by --base-url and --port.
 */
function receiverRules(config: Config, opened: { instances: InstanceRegistry }, now: number): ReceiverRules {
  const blocklist = readBlocklist(config.blocklist);
  return {
    ownHosts: [...(config.baseUrl === null ? [] : [new URL(config.baseUrl).host]), `localhost:${config.port}`, `127.0.0.1:${config.port}`],
    isBlocked: (url) => blocklist.matches(url),
    leave: async () => commandLeave(await opened.instances.all(), now, config.webhookAllowPrivate),
  };
}

/**
 * Adds the webhook if the service would post to it: a receiver it would never deliver to is refused
 * with exit 2 and the flag to set (src/cli/problems.ts); other URL problems exit 1.
 */
async function addWebhook(add: NewHook, rules: ReceiverRules, deps: WebhooksDeps, io: Output, where: string): Promise<number> {
  const made = await createWebhook(OPERATOR, { fields: add }, { ...deps, rules });
  if (!made.ok) return sayProblem(made.problem, io, where);
  io.out(made.value.secret);
  io.err(`shortener: webhook ${made.value.id} posts ${made.value.events.join(", ")} to ${made.value.url}, saved in ${where}; the secret above (for verifying signatures) is shown only this once`);
  return 0;
}

/** The list's STATE: enabled, failing with the last attempt's reason, or disabled with why. */
function stateOf(w: WebhookSummary): string {
  const status = webhookStatus(w);
  if (status === "disabled") return `disabled: ${w.disabledReason ?? ""}`;
  return status === "failing" ? `failing: ${w.lastDelivery?.error ?? ""}` : "enabled";
}
