// Standard Webhooks signing (https://www.standardwebhooks.com, spec "Signature scheme"): the secret
// is whsec_ + base64 of random bytes; each attempt is signed as HMAC-SHA256, keyed by those bytes,
// over `${webhook-id}.${webhook-timestamp}.${body}`, and sent as "v1,<base64>".

import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
/** 32 bytes: inside the specification's 24..64. */
const SECRET_BYTES = 32;

export function newSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** A message id: the same on every attempt (receivers de-duplicate by it); no "." (the signed content is dot-separated). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** The three headers of one attempt; `seconds`: the attempt's Unix time. */
export function signedHeaders(secret: string, messageId: string, seconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  const signature = createHmac("sha256", key).update(`${messageId}.${seconds}.${body}`).digest("base64");
  return { "webhook-id": messageId, "webhook-timestamp": String(seconds), "webhook-signature": `v1,${signature}` };
}
