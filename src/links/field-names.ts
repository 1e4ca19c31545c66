// The names a request gives a link's fields (docs/api.md: Create a short link). A create takes the spec's
// snake_case names in every body type and, in JSON, the management API's camelCase ones too (PATCH's
// and the list's), so a client can keep one spelling throughout. A name a request does not take is
// refused, never ignored: an ignored misspelling of the expiry is a link that never expires.

import type { ErrorField } from "../errors.ts";

/** Each field of a create, by its spec name, and its camelCase spelling (taken in JSON). */
export const CREATE_SPELLINGS = {
  url: "url", custom_url: "customUrl", expires_at: "expiresAt", max_clicks: "maxClicks", tags: "tags", rules: "rules", variants: "variants",
  password: "password", redirect_type: "redirectType", valid_from: "validFrom", fallback_url: "fallbackUrl", crawlable: "crawlable", domain: "domain", title: "title",
  card_title: "cardTitle", card_description: "cardDescription", card_image: "cardImage", ios_url: "iosUrl", android_url: "androidUrl",
} as const satisfies Record<string, ErrorField>;
export type CreateField = keyof typeof CREATE_SPELLINGS;

/** The name each create field goes by in one request: where it is read from, and how its problems name it. */
export type CreateNames = Record<CreateField, ErrorField>;

const SPEC = Object.keys(CREATE_SPELLINGS) as CreateField[];
const CAMEL = SPEC.map((f) => CREATE_SPELLINGS[f]).filter((name) => !(SPEC as string[]).includes(name));
export const SPEC_NAMES = Object.fromEntries(SPEC.map((f) => [f, f])) as CreateNames;

/** The first of `given` that is not one of `known`, or null. */
export function unknownField(given: Iterable<string>, known: readonly string[]): string | null {
  for (const name of given) if (!known.includes(name)) return name;
  return null;
}

/** What a 400 for an unknown field says: the field, and what `request` takes instead. */
export function unknownFieldError(name: string, request: string, known: readonly string[]): string {
  return `unknown field ${name}: ${request} takes ${known.join(", ")}`;
}

export type SpelledNames = { ok: true; names: CreateNames } | { ok: false; error: string };

/**
 * The name each field of a create went by, from the names its body holds: a form takes the spec's
 * names only, JSON either spelling of each field, but never both spellings of one (which would win
 * is a guess, and a guess is how a wrong expiry gets stored).
 */
export function createNames(given: readonly string[], json: boolean): SpelledNames {
  const unknown = unknownField(given, json ? [...SPEC, ...CAMEL] : SPEC);
  if (unknown !== null) {
    const spec = SPEC.find((f) => CREATE_SPELLINGS[f] === unknown);
    if (spec !== undefined) return { ok: false, error: `${unknown} is a JSON spelling: a form takes ${spec}` };
    return { ok: false, error: unknownFieldError(unknown, "a create", SPEC) + (json ? ` (or in JSON ${CAMEL.join(", ")})` : "") };
  }
  const names = { ...SPEC_NAMES };
  for (const field of SPEC) {
    const camel = CREATE_SPELLINGS[field];
    if (camel === field || !given.includes(camel)) continue;
    if (given.includes(field)) return { ok: false, error: `${field} and ${camel} are one field: give one of them` };
    names[field] = camel;
  }
  return { ok: true, names };
}
