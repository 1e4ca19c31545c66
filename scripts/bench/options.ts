// The bench's command line (scripts/bench.ts): --quick, --rounds, --seconds, --bin, --compare
// label=binary (repeatable), --db.

import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

export type Options = { quick: boolean; rounds: number; seconds: number; warmup: number; bin: string; compare: [string, string][]; db: string | null };

export function parseOptions(argv: string[]): Options {
  const quick = argv.includes("--quick");
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const compare: [string, string][] = [];
  argv.forEach((a, i) => {
    if (a !== "--compare") return;
    const spec = argv[i + 1] ?? "";
    const eq = spec.indexOf("=");
    if (eq < 1) throw new Error(`--compare wants label=/path/to/binary, got "${spec}"`);
    compare.push([spec.slice(0, eq), resolve(spec.slice(eq + 1))]);
  });
  return {
    quick,
    rounds: Number(value("--rounds") ?? (quick ? 2 : 6)),
    seconds: Number(value("--seconds") ?? (quick ? 5 : 10)),
    warmup: quick ? 2 : 3,
    bin: resolve(value("--bin") ?? join(ROOT, "shortener")),
    compare,
    db: value("--db") ?? null,
  };
}
