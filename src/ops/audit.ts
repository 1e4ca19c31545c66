// One log line per management action: the key's name (never the key), the action, the link id and
// the result. Operators grep these; the format is stable. Written by the operations (src/ops), so
// that every surface logs an action the same (docs/architecture.md: Operations).

import type { Logger } from "../log.ts";
import type { Principal } from "../auth/policy.ts";

export type Action = "create" | "list" | "count" | "get" | "update" | "delete" | "export" | "import" | "overview" | "sign-in" | "sign-out" | "webhook-create" | "webhook-update" | "webhook-delete" | "webhook-redeliver"
  | "key-create" | "key-revoke" | "user-disable" | "user-enable" | "user-admin" | "user-member"
  | "domain-add" | "domain-update" | "domain-rename" | "domain-default" | "domain-remove"
  | "tag-list" | "tag-rename" | "tag-delete"
  | "visits" | "visits-export"
  | "share-create" | "share-list" | "share-revoke";

export function logAction(log: Logger, principal: Pick<Principal, "name">, action: Action, id: string | null, result: string): void {
  log.info("management", { key: principal.name, action, id, result });
}
