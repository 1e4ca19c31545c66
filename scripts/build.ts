// npm run build: bundles the web UI, then compiles the service into ./shortener, one file that
// embeds the UI, the GeoLite2 Country database and the migrations (they are imports, not files).
// For every platform at once, see scripts/release.ts; both compile through scripts/lib/compile.ts.
// Twice: the first build runs once to record the functions it uses, and the second lays them out
// first (scripts/lib/bytecode-order.ts).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compileService, prepareBuild } from "./lib/compile.ts";
import { recordBytecodeOrder } from "./lib/bytecode-order.ts";

const root = resolve(import.meta.dir, "..");
// An output path is taken relative to where the command runs, like any other CLI argument.
const outfile = process.argv[2] ? resolve(process.argv[2]) : join(root, "shortener");

const stamp = await prepareBuild(root);
const scratch = mkdtempSync(join(tmpdir(), "shortener-build-"));
try {
  const first = join(scratch, "shortener");
  const order = join(scratch, "bytecode-order.txt");
  await compileService(root, { outfile: first, stamp });
  await recordBytecodeOrder(first, order);
  await compileService(root, { outfile, stamp, bytecodeOrder: order });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MiB, ${stamp.commit}, ${stamp.date})`);
