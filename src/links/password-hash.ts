// The one rule for a link's password hash (docs/security.md: Security, "Password hashes"): an argon2id PHC
// string whose parameters stay close to what this build writes (Bun.password.hash with argon2id:
// m=65536 KiB, t=2, p=1, a 32-byte salt and a 32-byte hash). Bun.password.verify does what a hash
// asks, so a hash that asks for 2 GiB or 999 passes costs that on every guess, from anyone: such a
// hash is refused wherever one is given (import, any create or edit that takes one), and one
// already stored is never verified (the link answers locked: src/http/link-password.ts).

/** The bounds, inclusive. Memory is in KiB, as the hash writes it; argon2 itself needs 8 KiB a lane. */
export const PASSWORD_HASH_BOUNDS = {
  memoryKiB: { min: 8, max: 65_536 },
  passes: { min: 1, max: 4 },
  lanes: { min: 1, max: 4 },
  saltBytes: { min: 8, max: 64 },
  hashBytes: { min: 16, max: 64 },
} as const;

const B = PASSWORD_HASH_BOUNDS;

/** The bounds in words, for error messages and the start-up report. */
export const PASSWORD_HASH_RULE =
  `an argon2id hash (v=19) as this version writes it: $argon2id$v=19$m=M,t=T,p=P$SALT$HASH with m at most ${B.memoryKiB.max} KiB (64 MiB) ` +
  `and at least 8 KiB per lane, t from ${B.passes.min} to ${B.passes.max}, p from ${B.lanes.min} to ${B.lanes.max}, ` +
  `a salt of ${B.saltBytes.min} to ${B.saltBytes.max} bytes and a hash of ${B.hashBytes.min} to ${B.hashBytes.max} bytes (unpadded base64)`;

// Numbers without leading zeros and base64 without padding, as argon2's reference encoder writes
// them. The digit counts only keep the numbers exact; the bounds are checked after.
const PHC = /^\$argon2id\$v=19\$m=([1-9]\d{0,9}),t=([1-9]\d{0,9}),p=([1-9]\d{0,9})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
/** Longer than any hash within the bounds (about 220 characters): not even matched. */
const MAX_TEXT = 256;

/** Why a hash is refused, or null when it is within the bounds. */
export function passwordHashProblem(text: string): string | null {
  if (text.length > MAX_TEXT) return `it is longer than ${MAX_TEXT} characters`;
  const m = PHC.exec(text);
  if (m === null) return "it is not of that form";
  const [memory, passes, lanes] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (passes < B.passes.min || passes > B.passes.max) return `t=${passes} is out of bounds`;
  if (lanes < B.lanes.min || lanes > B.lanes.max) return `p=${lanes} is out of bounds`;
  if (memory > B.memoryKiB.max || memory < B.memoryKiB.min * lanes) return `m=${memory} is out of bounds`;
  const salt = base64Bytes(m[4]!);
  if (salt === null || salt < B.saltBytes.min || salt > B.saltBytes.max) return "its salt is out of bounds";
  const hash = base64Bytes(m[5]!);
  if (hash === null || hash < B.hashBytes.min || hash > B.hashBytes.max) return "its hash is out of bounds";
  return null;
}

/** Whether a stored or given hash may be verified. */
export function passwordHashWithinBounds(text: string): boolean {
  return passwordHashProblem(text) === null;
}

/** Bytes an unpadded base64 text holds; null for a length no encoder writes (one char past a group). */
function base64Bytes(text: string): number | null {
  return text.length % 4 === 1 ? null : Math.floor((text.length * 3) / 4);
}
