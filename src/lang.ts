// The interface languages. Shared by the server (stats URL, reserved aliases) and the web UI.

export const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "pl", "ja", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** Best supported language for an Accept-Language header (RFC 9110 q-values); `en` when none fits. */
export function pickLanguage(acceptLanguage: string | null | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  let best: Language = DEFAULT_LANGUAGE;
  let bestQ = 0;
  for (const part of acceptLanguage.slice(0, 512).split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0] ?? "";
    if (!isLanguage(primary)) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k === "q" && v !== undefined) q = Number(v);
    }
    if (Number.isFinite(q) && q > bestQ) {
      best = primary;
      bestQ = q;
    }
  }
  return best;
}
