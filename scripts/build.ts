// npm run build: bundles the web UI, then compiles the service into ./shortener, one file that
// embeds the UI, the GeoLite2 Country database and the migrations (they are imports, not files).

import { $ } from "bun";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const outfile = join(root, process.argv[2] ?? "shortener");

await $`${process.execPath} ${join(root, "scripts/build-web.ts")}`.cwd(root);
// --minify keeps the binary small and start-up fast; CI runs the result because minified builds
// have broken some Elysia handler shapes before (elysia issue 1711).
await $`${process.execPath} build --compile --minify --sourcemap ${join(root, "src/main.ts")} --outfile ${outfile}`.cwd(root);
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MiB)`);
