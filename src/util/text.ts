// Characters that make text read differently from what it is, refused wherever text names
// something a person reads: a link's destination (src/links/url-rules.ts) and a proxy's user
// (src/auth/header-identity.ts).

/**
 * Bidi controls and zero-width characters: U+202E turns "moc.evil" into "live.com" on screen, and
 * a zero-width space makes two names that look alike differ.
 */
export const INVISIBLE_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
