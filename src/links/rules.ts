// Redirect rules and A/B splits as an owner writes them (docs/redirect-rules.md: Redirect rules): an ordered list of
// rules, each a few conditions and a destination (a URL, or variants split by weight), and
// variants on the link itself for its default destination. Checked here once for create, PATCH and
// import; every problem names the rule and condition (1-based, as the stats name rules).
// How a click is routed by them is router.ts.

import { parseCidr } from "../visits/client-ip.ts";
import { AddressRanges } from "../visits/address-ranges.ts";
import { parseInstant } from "./options.ts";
import type { ErrorCode } from "../errors.ts";

export const MAX_RULES = 20;
export const MAX_CONDITIONS = 5;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 5;
export const MAX_WEIGHT = 1000;

export const DEVICES = ["desktop", "mobile", "tablet"] as const;
/** Rule values → the operating system names the stats show (src/visits/ua.ts). */
export const SYSTEMS = { android: "Android", ios: "iOS", windows: "Windows", macos: "macOS", linux: "Linux", chromeos: "ChromeOS" } as const;
export const CONDITION_TYPES = ["device", "os", "browser", "language", "country", "query", "cidr", "after", "before"] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];
export type Condition =
  | { type: "device"; value: (typeof DEVICES)[number] }
  | { type: "os"; value: keyof typeof SYSTEMS }
  | { type: "browser" | "language" | "country" | "cidr"; value: string }
  | { type: "after" | "before"; value: string }
  | { type: "query"; key: string; value?: string };
export type Variant = { url: string; weight: number };
export type Rule = { conditions: Condition[]; url?: string; variants?: Variant[] };

/** How a URL inside a rule is checked: the destination rules of create.ts, given by the caller. */
export type UrlChecker = (raw: unknown) => { ok: true; url: string } | { ok: false; code: ErrorCode; error: string };
export type RuleProblem = { code: ErrorCode; error: string };
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: RuleProblem };

const LANGUAGE = /^([a-z]{2,3})(?:-([a-z0-9]{2,8}))?$/i;
const COUNTRY = /^[a-z]{2}$/i;
const MAX_TEXT = 200;
/** Control characters: a condition holding one (or a lone surrogate) is no text a visitor's request carries as such. */
const CONTROLS = /[\u0000-\u001f\u007f]/;

/** True for one of SYSTEMS' own names: a lookup by client text never reaches the prototype ("constructor", "__proto__"). */
export function isSystem(text: string): text is keyof typeof SYSTEMS {
  return Object.hasOwn(SYSTEMS, text);
}

/** True for text a condition may hold: well-formed Unicode without control characters. */
export function isConditionText(text: string): boolean {
  return text.isWellFormed() && !CONTROLS.test(text);
}

/** Rules as sent in JSON: an array of at most MAX_RULES rules. */
export function parseRules(raw: unknown, checkUrl: UrlChecker): Checked<Rule[]> {
  if (!Array.isArray(raw)) return bad("rules_invalid", "rules must be an array of rules");
  if (raw.length > MAX_RULES) return bad("rules_invalid", `at most ${MAX_RULES} rules (${raw.length} given)`);
  const rules: Rule[] = [];
  for (let i = 0; i < raw.length; i++) {
    const rule = parseRule(raw[i], checkUrl, `rule ${i + 1}`);
    if (!rule.ok) return rule;
    rules.push(rule.value);
  }
  return { ok: true, value: rules };
}

/** A split: MIN_VARIANTS to MAX_VARIANTS destinations with whole weights from 1 to MAX_WEIGHT. */
export function parseVariants(raw: unknown, checkUrl: UrlChecker, where = "variants"): Checked<Variant[]> {
  if (!Array.isArray(raw) || raw.length < MIN_VARIANTS || raw.length > MAX_VARIANTS) {
    return bad("variants_invalid", `${where} must be an array of ${MIN_VARIANTS} to ${MAX_VARIANTS} variants`);
  }
  const variants: Variant[] = [];
  for (let i = 0; i < raw.length; i++) {
    const at = `${where}, variant ${i + 1}`;
    const v = raw[i] as unknown;
    if (!isObject(v)) return bad("variants_invalid", `${at}: must be an object with url and weight`);
    const extra = Object.keys(v).find((k) => k !== "url" && k !== "weight");
    if (extra !== undefined) return bad("variants_invalid", `${at}: unknown field ${extra} (a variant has url and weight)`);
    const url = checkUrl(v.url);
    if (!url.ok) return bad(url.code, `${at}: ${url.error}`);
    const weight = v.weight;
    if (typeof weight !== "number" || !Number.isInteger(weight) || weight < 1 || weight > MAX_WEIGHT) {
      return bad("variants_invalid", `${at}: weight must be a whole number from 1 to ${MAX_WEIGHT}`);
    }
    variants.push({ url: url.url, weight });
  }
  return { ok: true, value: variants };
}

function parseRule(raw: unknown, checkUrl: UrlChecker, at: string): Checked<Rule> {
  if (!isObject(raw)) return bad("rules_invalid", `${at}: must be an object with conditions and url (or variants)`);
  const extra = Object.keys(raw).find((k) => k !== "conditions" && k !== "url" && k !== "variants");
  if (extra !== undefined) return bad("rules_invalid", `${at}: unknown field ${extra} (a rule has conditions and url or variants)`);
  const list = raw.conditions;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CONDITIONS) {
    return bad("rules_invalid", `${at}: conditions must be an array of 1 to ${MAX_CONDITIONS} conditions`);
  }
  const conditions: Condition[] = [];
  for (let j = 0; j < list.length; j++) {
    const c = parseCondition(list[j], `${at}, condition ${j + 1}`);
    if (!c.ok) return c;
    conditions.push(c.value);
  }
  const hasUrl = raw.url !== undefined && raw.url !== null;
  const hasVariants = raw.variants !== undefined && raw.variants !== null;
  if (hasUrl === hasVariants) return bad("rules_invalid", `${at}: give either url or variants`);
  if (hasUrl) {
    const url = checkUrl(raw.url);
    if (!url.ok) return bad(url.code, `${at}: ${url.error}`);
    return { ok: true, value: { conditions, url: url.url } };
  }
  const variants = parseVariants(raw.variants, checkUrl, `${at}, variants`);
  return variants.ok ? { ok: true, value: { conditions, variants: variants.value } } : variants;
}

function parseCondition(raw: unknown, at: string): Checked<Condition> {
  if (!isObject(raw)) return bad("rules_invalid", `${at}: must be an object with type and value`);
  const type = raw.type;
  if (typeof type !== "string" || !(CONDITION_TYPES as readonly string[]).includes(type)) {
    return bad("rules_invalid", `${at}: type must be one of ${CONDITION_TYPES.join(", ")}`);
  }
  const allowed = type === "query" ? ["type", "key", "value"] : ["type", "value"];
  const extra = Object.keys(raw).find((k) => !allowed.includes(k));
  if (extra !== undefined) return bad("rules_invalid", `${at}: unknown field ${extra} (a ${type} condition has ${allowed.slice(1).join(" and ")})`);
  const value = raw.value;
  const text = typeof value === "string" ? value.trim() : null;
  const wrong = (what: string) => bad<Condition>("rules_invalid", `${at}: ${type} ${what}`);
  switch (type as ConditionType) {
    case "device":
      if (text === null || !(DEVICES as readonly string[]).includes(text.toLowerCase())) return wrong(`must be one of ${DEVICES.join(", ")}`);
      return { ok: true, value: { type: "device", value: text.toLowerCase() as (typeof DEVICES)[number] } };
    case "os":
      if (text === null || !isSystem(text.toLowerCase())) return wrong(`must be one of ${Object.keys(SYSTEMS).join(", ")}`);
      return { ok: true, value: { type: "os", value: text.toLowerCase() as keyof typeof SYSTEMS } };
    case "browser":
      if (text === null || text === "" || text.length > 50 || !isConditionText(text)) return wrong("must be a browser name as the stats show it (Chrome, Firefox, Safari, …)");
      return { ok: true, value: { type: "browser", value: text } };
    case "language": {
      const m = text === null ? null : LANGUAGE.exec(text);
      if (m === null) return wrong("must be a language code, with a region or not (de, pt-BR)");
      const region = m[2] === undefined ? "" : `-${m[2].length === 2 ? m[2].toUpperCase() : m[2].toLowerCase()}`;
      return { ok: true, value: { type: "language", value: m[1]!.toLowerCase() + region } };
    }
    case "country":
      if (text === null || !COUNTRY.test(text)) return wrong("must be an ISO 3166 alpha-2 code (DE, US, …)");
      return { ok: true, value: { type: "country", value: text.toUpperCase() } };
    case "query": {
      const key = raw.key;
      if (typeof key !== "string" || key === "" || key.length > MAX_TEXT || !isConditionText(key)) return wrong(`needs a key of 1 to ${MAX_TEXT} characters, without control characters`);
      if (value === undefined || value === null) return { ok: true, value: { type: "query", key } };
      if (typeof value !== "string" || value.length > MAX_TEXT || !isConditionText(value)) return wrong(`value must be text of at most ${MAX_TEXT} characters, without control characters`);
      return { ok: true, value: { type: "query", key, value } };
    }
    case "cidr": {
      const cidr = text === null ? null : normalizeCidr(text);
      if (cidr === null) return wrong("must be an address range like 203.0.113.0/24 or 2001:db8::/32");
      return { ok: true, value: { type: "cidr", value: cidr } };
    }
    case "after":
    case "before": {
      const at2 = parseInstant(value);
      if (at2 === null) return wrong("must be an ISO 8601 time with a zone (2026-12-31T18:00:00Z)");
      return { ok: true, value: { type: type as "after" | "before", value: new Date(at2).toISOString() } };
    }
  }
}

/** A range as written (an address alone is its own /32 or /128), or null when it is not one. */
export function normalizeCidr(text: string): string | null {
  const range = parseCidr(text);
  return range === null ? null : `${range.address.toLowerCase()}/${range.bits}`;
}

/** The addresses one range written by normalizeCidr holds (they answer as node's BlockList did). */
export function cidrRange(cidr: string): AddressRanges {
  const range = new AddressRanges();
  range.add(parseCidr(cidr)!);
  return range;
}

/** Every URL a link's rules and variants send to (the blocklist checks each). */
export function ruleUrls(rules: readonly Rule[] | null, variants: readonly Variant[] | null): string[] {
  const out: string[] = [];
  for (const r of rules ?? []) {
    if (r.url !== undefined) out.push(r.url);
    for (const v of r.variants ?? []) out.push(v.url);
  }
  for (const v of variants ?? []) out.push(v.url);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function bad<T>(code: ErrorCode, error: string): Checked<T> {
  return { ok: false, problem: { code, error } };
}
