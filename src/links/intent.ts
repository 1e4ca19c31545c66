// An intent: URL read as Android's Intent.parseUri reads it (Chrome hands it over as written): the
// field names are matched as typed, every value and every extra's key is percent-decoded first, and
// the data URI is the scheme= value joined to what follows "intent:". Checking the fields as typed
// let `scheme=%6Aavascript` or `S.browser%5Ffallback%5Furl=` through (docs/sharing.md: Links into apps).
// Anything this reader does not follow exactly is refused rather than guessed at.

/** What a click on an intent: URL can lead to: the data URI the app is asked to open, and the web fallbacks. */
export type IntentTargets = {
  /** scheme= + ":" + "//authority/path…" (null: no scheme=, an intent by package or action alone) */
  data: string | null;
  /** the decoded S.browser_fallback_url values, where Chrome goes when no app takes the intent */
  fallbacks: string[];
};

// Field names Intent.parseUri knows (matched as typed, as Android does), and the extras' type prefixes.
const FIELDS = ["action=", "category=", "type=", "launchFlags=", "package=", "component=", "scheme=", "sourceBounds="];
const EXTRA_TYPES = ["S.", "B.", "b.", "c.", "d.", "f.", "i.", "l.", "s."];
const SCHEME_NAME = /^[a-z][a-z0-9+.-]*$/i;

/**
 * The targets of an intent: URL as stored (its WHATWG href); null when it is not one this service
 * accepts: not of the form `intent://…#Intent;…;end`, more than one `#`, a `SEL;` selector (a second
 * intent inside), a field Android would refuse, a value that does not percent-decode, or a scheme=
 * that is not a scheme name.
 */
export function intentTargets(href: string): IntentTargets | null {
  if (!href.startsWith("intent:")) return null;
  const hashAt = href.indexOf("#");
  // Android splits at the LAST "#", the WHATWG parser at the first: one "#" only, so both agree.
  if (hashAt === -1 || hashAt !== href.lastIndexOf("#")) return null;
  const rest = href.slice("intent:".length, hashAt);
  // `intent:javascript:…`, `intent:data:…`: Android opens the text after "intent:" itself.
  if (!rest.startsWith("//")) return null;
  const fragment = href.slice(hashAt + 1);
  if (!fragment.startsWith("Intent;") || !fragment.endsWith(";end")) return null;
  const items = fragment.slice("Intent;".length, -";end".length);
  let scheme: string | null = null;
  const fallbacks: string[] = [];
  for (const item of items === "" ? [] : items.split(";")) {
    const field = readField(item);
    if (field === null) return null;
    if (field.name === "scheme=") scheme = field.value;
    else if (field.name === "S." && field.key === "browser_fallback_url") fallbacks.push(field.value);
  }
  if (scheme !== null && !SCHEME_NAME.test(scheme)) return null;
  return { data: scheme === null ? null : `${scheme}:${rest}`, fallbacks };
}

/** One `name=value` item, decoded as Android decodes it; null for one it would refuse or that we do not follow. */
function readField(item: string): { name: string; key: string; value: string } | null {
  const eq = item.indexOf("=");
  // "end…" stops Android's reading early; "SEL" opens a selector: both refused.
  if (eq === -1 || item.startsWith("end")) return null;
  const value = decoded(item.slice(eq + 1));
  if (value === null) return null;
  const name = FIELDS.find((f) => item.startsWith(f));
  if (name !== undefined) return { name, key: "", value };
  const type = EXTRA_TYPES.find((t) => item.startsWith(t));
  if (type === undefined) return null;
  const key = decoded(item.slice(type.length, eq));
  return key === null ? null : { name: type, key, value };
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
