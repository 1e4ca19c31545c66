// The audit line moved to the operations (src/ops/audit.ts); the handlers that do not call an
// operation yet still write it through here.

export { logAction, type Action } from "../ops/audit.ts";
