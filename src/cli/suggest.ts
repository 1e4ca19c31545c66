// "did you mean …?" for a mistyped flag, command or action: the nearest known word by edit
// distance, and nothing when no word is near (a guess far off would mislead more than help).

/** Edits (insert, delete, replace, swap two neighbours) from a to b: "kye" is one from "key". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How far a word may be from the one meant: one edit in a short word, two or three in longer ones. */
function tolerance(word: string): number {
  return word.length <= 4 ? 1 : word.length <= 9 ? 2 : 3;
}

/** The known word nearest to `word` (case aside), the first of equals; null when none is near enough. */
export function nearest(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= tolerance(word) ? best : null;
}

/** "; did you mean key?", or "" when nothing is near. `prefix` goes before the word: "--" for a flag. */
export function didYouMean(word: string, known: readonly string[], prefix = ""): string {
  const found = nearest(word, known);
  return found === null ? "" : `; did you mean ${prefix}${found}?`;
}
