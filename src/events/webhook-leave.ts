// Whether a webhook may post to a special-purpose address (docs/webhooks.md: Webhooks, "Where webhooks may
// post"), and what a refusal says. The service that delivers decides, not whoever adds the webhook:
// a receiver it would never reach is refused when it is added, with the flag to set, rather than
// queued to fail where nobody looks. The instances record what they allow at start
// (src/instances/registry.ts); when several run on one PostgreSQL database they share the sending,
// so each of them must allow it.

import { isRunning, lastSeen, rulingInstances, type InstanceRecord, type InstanceRegistry } from "../instances/registry.ts";

export const WEBHOOK_FLAG = "--webhook-allow-private";

/** `why`: said after a refused address (what refuses it and the flag to set); empty when allowed. */
export type WebhookLeave = { allowPrivate: boolean; why: string };

const ALLOWED: WebhookLeave = { allowPrivate: true, why: "" };

/**
 * A command's (`shortener webhook add`): what the instances that rule allow (those running, or the
 * one that ran last); before any service ran on the database, the command's own flag.
 */
export function commandLeave(records: readonly InstanceRecord[], now: number, ownFlag: boolean): WebhookLeave {
  const ruling = rulingInstances(records, now);
  if (ruling.length === 0) {
    return ownFlag ? ALLOWED : { allowPrivate: false, why: `reached only with ${WEBHOOK_FLAG} (no service has run on this database yet, so this command's own flag decides)` };
  }
  const lacking = ruling.filter((r) => !r.webhookAllowPrivate);
  if (lacking.length === 0) return ALLOWED;
  const mine = ownFlag ? `; ${WEBHOOK_FLAG} on this command does not change what the service does` : "";
  return { allowPrivate: false, why: `${lacking.length === 1 ? oneLacking(lacking[0]!, now) : severalLacking(lacking)}${mine}` };
}

/**
 * The API's, inside an instance: its own flag first; then every other instance running on the
 * database (PostgreSQL), since any of them may be the one that sends a delivery.
 */
export function serviceLeave(records: readonly InstanceRecord[], now: number, ownFlag: boolean, ownName: string | null): WebhookLeave {
  if (!ownFlag) return { allowPrivate: false, why: `reached only with ${WEBHOOK_FLAG}, which this service was started without` };
  const others = records.filter((r) => r.name !== ownName && isRunning(r, now) && !r.webhookAllowPrivate);
  if (others.length === 0) return ALLOWED;
  const names = others.map((r) => r.name).join(", ");
  return {
    allowPrivate: false,
    why: `${others.length === 1 ? "the instance" : "the instances"} ${names} on this database ${others.length === 1 ? "runs" : "run"} without ${WEBHOOK_FLAG} and may be the one that sends: start ${others.length === 1 ? "it" : "them"} with ${WEBHOOK_FLAG} too`,
  };
}

function oneLacking(r: InstanceRecord, now: number): string {
  const when = isRunning(r, now) ? `running since ${minute(r.startedAt)}` : `last running ${minute(lastSeen(r))}`;
  return `the service on this database (${r.name}, ${when}) was started without ${WEBHOOK_FLAG} and would never post there: start it with ${WEBHOOK_FLAG} (SHORTENER_WEBHOOK_ALLOW_PRIVATE=1)`;
}

function severalLacking(lacking: readonly InstanceRecord[]): string {
  return `the instances ${lacking.map((r) => r.name).join(", ")} on this database were started without ${WEBHOOK_FLAG} and would never post there: start them with ${WEBHOOK_FLAG} (SHORTENER_WEBHOOK_ALLOW_PRIVATE=1)`;
}

/** "2026-11-28 10:04 UTC" */
function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The service's leave now, from the records (its own flag alone when they cannot be read). */
export async function currentServiceLeave(registry: Pick<InstanceRegistry, "all">, ownFlag: boolean, ownName: string | null): Promise<WebhookLeave> {
  if (!ownFlag) return serviceLeave([], 0, false, ownName);
  try {
    return serviceLeave(await registry.all(), Date.now(), true, ownName);
  } catch {
    return serviceLeave([], 0, true, ownName);
  }
}
