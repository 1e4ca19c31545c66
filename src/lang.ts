// The interface languages. Shared by the server (stats URL, reserved aliases) and the web UI.

export const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "pl", "ja", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** Best supported language for an Accept-Language header (RFC 9110 q-values); `en` when none fits. */
export function pickLanguage(acceptLanguage: string | null | undefined): Language {
  const best = mostPreferred(acceptLanguage, (tag) => {
    const primary = tag.split("-")[0] ?? "";
    return isLanguage(primary) ? primary : null;
  });
  return best ?? DEFAULT_LANGUAGE;
}

/**
 * The visitor's most preferred language tag, lower case ("pt-br"), or null: what a redirect rule's
 * language condition compares. "*" names no language.
 */
export function preferredLanguage(acceptLanguage: string | null | undefined): string | null {
  return mostPreferred(acceptLanguage, (tag) => (tag === "" || tag === "*" ? null : tag));
}

/**
 * The tag with the highest q-value (RFC 9110; the first of equals; q=0 never) among those `accept`
 * turns into a value (lower-cased tags in, null to skip one).
 */
function mostPreferred<T>(header: string | null | undefined, accept: (tag: string) => T | null): T | null {
  if (!header) return null;
  let best: T | null = null;
  let bestQ = 0;
  for (const part of header.slice(0, 512).split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const value = accept(tag.trim().toLowerCase());
    if (value === null) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k?.trim() === "q" && v !== undefined) q = Number(v);
    }
    if (Number.isFinite(q) && q > bestQ) {
      best = value;
      bestQ = q;
    }
  }
  return best;
}
