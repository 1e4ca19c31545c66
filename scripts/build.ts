// npm run build: bundles the web UI, then compiles the service into ./shortener, one file that
// embeds the UI, the GeoLite2 Country database and the migrations (they are imports, not files).
// For every platform at once, see scripts/release.ts; both compile through scripts/lib/compile.ts.

import { join, resolve } from "node:path";
import { compileService, prepareBuild } from "./lib/compile.ts";

const root = resolve(import.meta.dir, "..");
// An output path is taken relative to where the command runs, like any other CLI argument.
const outfile = process.argv[2] ? resolve(process.argv[2]) : join(root, "shortener");

const stamp = await prepareBuild(root);
await compileService(root, { outfile, stamp });
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MiB, ${stamp.commit}, ${stamp.date})`);
