// A seeded generator for generated test inputs: a failure names an input that can be run again.
/** Numbers in [0, 1), the same sequence for the same seed (a 32-bit linear congruential generator). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
