// Shlink's redirect-rule conditions and ours, both ways (docs/shlink-api.md: Redirect rules): a
// condition maps only to one that holds for exactly the same clicks; one that would hold for
// other clicks is refused by name, never stretched (Shlink's semantics: module/Core/src/RedirectRule/
// Entity/RedirectCondition.php, module/Core/src/Model/{DeviceType,Browser}.php, Core/src/Util/IpAddressUtils.php).

import type { ShlinkRedirectCondition, ShlinkRedirectConditionType } from "@shlinkio/shlink-js-sdk/api-contract";
import { isConditionText, isSystem, normalizeCidr, SYSTEMS, type Condition } from "../../../links/rules.ts";
import { parseInstant } from "../../../links/options.ts";
import { atomTime } from "./shlink-time.ts";

/** Shlink's browser values and the names our stats (and browser conditions) give the same browsers. */
const BROWSERS = { chrome: "Chrome", firefox: "Firefox", edge: "Edge", safari: "Safari", opera: "Opera", android_browser: "Android Browser" } as const;

/** A condition mapped the other way, or why it cannot be. */
export type Mapped<T> = { ok: true; value: T } | { ok: false; why: string };

/** Why a Shlink condition has no equivalent here: the detail a refusal gives. */
const REFUSED: Partial<Record<ShlinkRedirectConditionType, string>> = {
  language:
    "Shlink's language condition holds for any language the visitor accepts with q ≥ 0.9; this shortener's holds for the visitor's most preferred language only, so it cannot be set here: set language rules in the dashboard",
  "geolocation-city-name": "this shortener does not know a visitor's city: a geolocation-city-name condition cannot be set (geolocation-country-code can)",
};
const MOBILE =
  "Shlink's mobile device means any iOS or Android device, tablets too; this shortener tells phones and tablets apart, so there is no one condition for it: write one rule with device android and one with device ios";

/** A Shlink condition as ours, or why it cannot be one (`at`: "rule 2, condition 1"). */
export function ourCondition(raw: unknown, at: string): Mapped<Condition> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return no(`${at}: a condition is an object with type, matchKey and matchValue`);
  const c = raw as Record<string, unknown>;
  const type = c.type;
  const value = typeof c.matchValue === "string" ? c.matchValue.trim() : null;
  const key = typeof c.matchKey === "string" && c.matchKey !== "" ? c.matchKey : null;
  if (typeof type !== "string") return no(`${at}: type is missing`);
  // Lookups keyed by the client's text use own properties only: "constructor" is no condition type.
  const refused = Object.hasOwn(REFUSED, type) ? REFUSED[type as ShlinkRedirectConditionType] : undefined;
  if (refused !== undefined) return no(`${at}: ${refused}`);
  if ([c.matchKey, c.matchValue].some((t) => typeof t === "string" && !isConditionText(t))) return no(`${at}: matchKey and matchValue must be text without control characters`);
  const need = (what: string) => no(`${at}: a ${type} condition needs ${what}`);
  switch (type as ShlinkRedirectConditionType) {
    case "device": {
      if (value === "mobile") return no(`${at}: ${MOBILE}`);
      if (value === "desktop") return yes({ type: "device", value: "desktop" });
      if (value !== null && isSystem(value)) return yes({ type: "os", value });
      return need(`a matchValue of ${[...Object.keys(SYSTEMS), "desktop"].join(", ")}`);
    }
    case "browser": {
      const name = value !== null && Object.hasOwn(BROWSERS, value) ? BROWSERS[value as keyof typeof BROWSERS] : undefined;
      return name === undefined ? need(`a matchValue of ${Object.keys(BROWSERS).join(", ")}`) : yes({ type: "browser", value: name });
    }
    case "query-param":
      if (key === null || value === null || value === "") return need("a matchKey and a matchValue");
      return yes({ type: "query", key, value: c.matchValue as string });
    case "any-value-query-param":
      return key === null ? need("a matchKey") : yes({ type: "query", key });
    case "valueless-query-param":
      return key === null ? need("a matchKey") : yes({ type: "query", key, value: "" });
    case "ip-address": {
      const cidr = value === null ? null : rangeOf(value);
      return cidr === null ? need("an address, a range (192.168.10.0/24) or a pattern whose wildcards are the last parts (192.168.*.*)") : yes({ type: "cidr", value: cidr });
    }
    case "geolocation-country-code":
      return value !== null && /^[a-z]{2}$/i.test(value) ? yes({ type: "country", value: value.toUpperCase() }) : need("an ISO 3166 alpha-2 country code");
    case "before-date":
    case "after-date": {
      const at2 = parseInstant(value);
      if (at2 === null) return need("a date with a time zone (2026-12-31T18:00:00+00:00)");
      return yes({ type: type === "before-date" ? "before" : "after", value: new Date(at2).toISOString() });
    }
    default:
      return no(`${at}: ${JSON.stringify(type)} is no condition type Shlink has`);
  }
}

/** One of our conditions in Shlink's words, or why Shlink cannot show it. */
export function shlinkCondition(c: Condition): Mapped<ShlinkRedirectCondition> {
  const value = (type: ShlinkRedirectConditionType, matchValue: string) => yes<ShlinkRedirectCondition>({ type, matchKey: null, matchValue });
  switch (c.type) {
    case "os":
      return value("device", c.value);
    case "device":
      return c.value === "desktop" ? value("device", "desktop") : no(`a device ${c.value} condition (Shlink has no ${c.value} device: its mobile counts phones and tablets together)`);
    case "browser": {
      const found = Object.entries(BROWSERS).find(([, name]) => name.toLowerCase() === c.value.toLowerCase());
      return found === undefined ? no(`a browser ${c.value} condition (Shlink knows ${Object.values(BROWSERS).join(", ")} only)`) : value("browser", found[0]);
    }
    case "query":
      if (c.value === undefined) return yes({ type: "any-value-query-param", matchKey: c.key, matchValue: null });
      return yes({ type: c.value === "" ? "valueless-query-param" : "query-param", matchKey: c.key, matchValue: c.value === "" ? null : c.value });
    case "cidr":
      return value("ip-address", c.value.endsWith("/32") && !c.value.includes(":") ? c.value.slice(0, -3) : c.value);
    case "country":
      return value("geolocation-country-code", c.value);
    case "before":
    case "after":
      return value(c.type === "before" ? "before-date" : "after-date", atomTime(Date.parse(c.value)));
    case "language":
      return no("a language condition (this shortener's holds for the visitor's most preferred language, Shlink's for any language accepted with q ≥ 0.9)");
  }
}

/**
 * An IPv4 address, a range, or Shlink's wildcard pattern as a range; a pattern is taken only when
 * its wildcards are its last parts (192.168.*.* is 192.168.0.0/16), since a wildcard in the middle
 * (10.*.0.1) is no one range.
 */
export function rangeOf(text: string): string | null {
  if (!text.includes("*")) return normalizeCidr(text);
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const fixed = parts.findIndex((p) => p === "*");
  if (parts.slice(fixed).some((p) => p !== "*")) return null;
  const head = parts.slice(0, fixed);
  if (!head.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return normalizeCidr(`${[...head, ...parts.slice(fixed).map(() => "0")].join(".")}/${fixed * 8}`);
}

function yes<T>(value: T): Mapped<T> {
  return { ok: true, value };
}

function no(why: string): { ok: false; why: string } {
  return { ok: false, why };
}
