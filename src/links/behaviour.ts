// What a link does beyond sending every visitor to its URL (docs/redirect-rules.md: Redirect rules): its rules and
// split, a password, the redirect code, when it starts to work, where it sends visitors once it no
// longer does, and whether search engines may follow it. Read from a create's form fields
// (snake_case), a JSON create, a PATCH (camelCase) or an import row, by one parser.

import { parseInstant } from "./options.ts";
import { PASSWORD_HASH_RULE, passwordHashProblem } from "./password-hash.ts";
import { parseRules, parseVariants, type Rule, type UrlChecker, type Variant } from "./rules.ts";
import type { ErrorCode, ErrorField, FieldProblem } from "../errors.ts";

export const REDIRECT_TYPES = [301, 302, 307, 308] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];
export const DEFAULT_REDIRECT_TYPE: RedirectType = 302;
export const MAX_PASSWORD_LENGTH = 200;

/** The behaviour of a link as stored; a plain link has every field at its default. */
export type Behaviour = {
  rules: Rule[] | null;
  variants: Variant[] | null;
  /** argon2id (Bun.password) of the link's password; the password itself is never stored */
  passwordHash: string | null;
  redirectType: RedirectType;
  /** ms; before it the link answers like an unknown id */
  validFrom: number | null;
  /** where an expired, click-limited or disabled link sends visitors instead of its 410 page */
  fallbackUrl: string | null;
  /** robots.txt lets search engines follow it */
  crawlable: boolean;
};

export const PLAIN: Behaviour = { rules: null, variants: null, passwordHash: null, redirectType: DEFAULT_REDIRECT_TYPE, validFrom: null, fallbackUrl: null, crawlable: false };

/** The names a request uses for each field: a create's form (snake_case) or the JSON of PATCH (camelCase). */
export type FieldNames = Record<"rules" | "variants" | "password" | "passwordHash" | "redirectType" | "validFrom" | "fallbackUrl" | "crawlable", ErrorField>;
export const SNAKE_NAMES: FieldNames = {
  rules: "rules", variants: "variants", password: "password", passwordHash: "password_hash", redirectType: "redirect_type", validFrom: "valid_from", fallbackUrl: "fallback_url", crawlable: "crawlable",
};
export const CAMEL_NAMES: FieldNames = {
  rules: "rules", variants: "variants", password: "password", passwordHash: "passwordHash", redirectType: "redirectType", validFrom: "validFrom", fallbackUrl: "fallbackUrl", crawlable: "crawlable",
};

/**
 * What a request says about the behaviour: only the fields it names (null clears one; a PATCH
 * leaves the rest as they are). `password` is the plain text still to be hashed (hashBehaviour).
 */
export type BehaviourInput = Partial<Omit<Behaviour, "passwordHash">> & { password?: string | null; passwordHash?: string | null };

/** Reads the behaviour fields of a record (form text or JSON values); every problem is reported. */
export function parseBehaviour(
  record: Record<string, unknown>,
  names: FieldNames,
  checkUrl: UrlChecker,
  problems: FieldProblem[],
  // An empty form field (or CSV cell) means none, as in any create; in a PATCH, "" is a value like any other (null clears).
  emptyIsNone = names === SNAKE_NAMES,
): BehaviourInput {
  const out: BehaviourInput = {};
  const given = (key: keyof FieldNames) => record[names[key]] !== undefined && !(emptyIsNone && record[names[key]] === "");
  const say = (key: keyof FieldNames, code: ErrorCode, error: string) => problems.push({ code, field: names[key], error });

  if (given("rules")) {
    const raw = record[names.rules];
    if (raw === null) out.rules = null;
    else {
      const parsed = parseRules(typeof raw === "string" ? parseJsonText(raw) : raw, checkUrl);
      if (parsed.ok) out.rules = parsed.value.length === 0 ? null : parsed.value;
      else say("rules", parsed.problem.code, parsed.problem.error);
    }
  }
  if (given("variants")) {
    const raw = record[names.variants];
    if (raw === null) out.variants = null;
    else {
      const parsed = parseVariants(typeof raw === "string" ? parseJsonText(raw) : raw, checkUrl);
      if (parsed.ok) out.variants = parsed.value;
      else say("variants", parsed.problem.code, parsed.problem.error);
    }
  }
  if (given("password")) {
    const raw = record[names.password];
    if (raw === null) out.password = null;
    else if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_PASSWORD_LENGTH) say("password", "password_invalid", `${names.password} must be text of 1 to ${MAX_PASSWORD_LENGTH} characters`);
    else out.password = raw;
  }
  if (given("passwordHash")) {
    // An export's hash, imported as it is (lossless round trip), within the bounds a verify may
    // cost (password-hash.ts): never one that asks argon2 for gigabytes on every guess.
    const raw = record[names.passwordHash];
    const problem = typeof raw === "string" ? passwordHashProblem(raw) : "it is not text";
    if (raw === null) out.passwordHash = null;
    else if (typeof raw === "string" && problem === null) out.passwordHash = raw;
    else say("passwordHash", "password_invalid", `${names.passwordHash} must be ${PASSWORD_HASH_RULE}; ${problem}`);
  }
  if (given("redirectType")) {
    const raw = record[names.redirectType];
    const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*\d{3}\s*$/.test(raw) ? Number(raw) : raw === null ? DEFAULT_REDIRECT_TYPE : NaN;
    if ((REDIRECT_TYPES as readonly number[]).includes(n)) out.redirectType = n as RedirectType;
    else say("redirectType", "redirect_type_invalid", `${names.redirectType} must be one of ${REDIRECT_TYPES.join(", ")}`);
  }
  if (given("validFrom")) {
    const raw = record[names.validFrom];
    const at = raw === null ? null : parseInstant(raw);
    if (raw === null || at !== null) out.validFrom = at;
    else say("validFrom", "valid_from_invalid", `${names.validFrom} must be an ISO 8601 time with a zone (2026-12-31T18:00:00Z)`);
  }
  if (given("fallbackUrl")) {
    const raw = record[names.fallbackUrl];
    if (raw === null) out.fallbackUrl = null;
    else {
      const url = checkUrl(raw);
      if (url.ok) out.fallbackUrl = url.url;
      else say("fallbackUrl", url.code, `${names.fallbackUrl}: ${url.error}`);
    }
  }
  if (given("crawlable")) {
    const raw = record[names.crawlable];
    const flag = raw === null ? false : typeof raw === "boolean" ? raw : typeof raw === "string" ? FLAG_TEXT[raw.trim().toLowerCase()] : undefined;
    if (flag === undefined) say("crawlable", "bad_request", `${names.crawlable} must be true or false`);
    else out.crawlable = flag;
  }
  if (out.password != null && out.passwordHash != null) say("password", "password_invalid", `give ${names.password} or ${names.passwordHash}, not both`);
  return out;
}

/** The stored form of the input: the password hashed with argon2id (slow on purpose), nothing else changed. */
export async function hashBehaviour(input: BehaviourInput): Promise<Partial<Behaviour>> {
  const { password, ...rest } = input;
  if (password === undefined) return rest;
  return { ...rest, passwordHash: password === null ? null : await Bun.password.hash(password, { algorithm: "argon2id" }) };
}

/** The warning an API answer carries for a permanent redirect (shlink#746): browsers may keep it and skip us. */
export function redirectWarning(redirectType: RedirectType): string | null {
  return redirectType === 301 || redirectType === 308
    ? `redirectType ${redirectType} is permanent: browsers and proxies may cache it despite Cache-Control: no-store, and repeat clicks from them go uncounted`
    : null;
}

const FLAG_TEXT: Record<string, boolean> = { true: true, false: false, on: true, off: false, "1": true, "0": false, yes: true, no: false };

// A form or CSV cell carries rules and variants as JSON text.
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // reported by the parser as "must be an array"
  }
}
