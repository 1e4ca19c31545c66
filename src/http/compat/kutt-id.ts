// The `id` of a link on the Kutt surface (docs/kutt-api.md: Ids): Kutt's clients expect a UUID. It
// is made from the link's seq, which survives a rename of its domain, a move to another domain and
// `shortener copy`, and is never given to another link: a version-8 ("custom") UUID whose last 12
// hex digits are the seq. It tells a key that sees the link the link's row number, nothing more.

const PREFIX = "00000000-0000-8000-8000-";
const ID_PATTERN = /^00000000-0000-8000-8000-([0-9a-f]{12})$/;

/** The Kutt id of the link with this seq. */
export function kuttId(seq: number): string {
  return PREFIX + seq.toString(16).padStart(12, "0");
}

/** The seq a Kutt id names, or null for any other text (upper-case hex too: we never give it out). */
export function seqOfKuttId(text: string): number | null {
  const match = ID_PATTERN.exec(text);
  if (match === null) return null;
  const seq = Number.parseInt(match[1]!, 16);
  return seq >= 1 ? seq : null;
}
