// How a destination is shown: stored URLs are normalized (punycode hosts), and an internationalized
// host reads better as Unicode, but only when that cannot deceive. A label is shown in Unicode
// when its letters are of one script (Japanese and Korean mixes of Han with kana or Hangul count as
// one, as Unicode's "highly restrictive" profile says), else the whole host stays punycode, which
// is what a look-alike such as "аpple.com" (Cyrillic а) then shows.

const SCRIPTS = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Thai", "Georgian", "Han", "Hiragana", "Katakana", "Hangul", "Tamil", "Ethiopic"] as const;
const PATTERNS = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);
const CJK_GROUP: Record<string, string> = { Han: "cjk", Hiragana: "cjk", Katakana: "cjk", Hangul: "cjk" };

/** The URL as shown in the UI; `href` stays what links and titles use. */
export function displayUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  if (!url.hostname.split(".").some((label) => label.startsWith("xn--"))) return href;
  const labels = url.hostname.split(".").map((label) => (label.startsWith("xn--") ? decodePunycode(label.slice(4)) : label));
  if (labels.some((label) => label === null || !oneScript(label))) return href;
  const at = href.indexOf(url.hostname);
  return href.slice(0, at) + labels.join(".") + href.slice(at + url.hostname.length);
}

function oneScript(label: string): boolean {
  const seen = new Set<string>();
  for (const ch of label) {
    if (!/[\p{L}\p{M}]/u.test(ch)) continue; // digits and hyphens belong to every script
    const script = PATTERNS.find(([, p]) => p.test(ch))?.[0] ?? `other:${ch}`;
    seen.add(CJK_GROUP[script] ?? script);
  }
  return seen.size <= 1;
}

/** RFC 3492 decoding of a label's part after "xn--"; null when it is not valid punycode. */
export function decodePunycode(input: string): string | null {
  const BASE = 36, T_MIN = 1, T_MAX = 26, SKEW = 38, DAMP = 700;
  const adapt = (delta: number, points: number, first: boolean) => {
    delta = first ? Math.floor(delta / DAMP) : delta >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    for (; delta > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) delta = Math.floor(delta / (BASE - T_MIN));
    return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
  };
  const output: number[] = [];
  const basic = Math.max(0, input.lastIndexOf("-"));
  for (let j = 0; j < basic; j++) output.push(input.charCodeAt(j));
  let n = 128, bias = 72, i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length; ) {
    const oldI = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const c = input.charCodeAt(index++);
      const digit = c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : BASE;
      if (digit >= BASE) return null;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
