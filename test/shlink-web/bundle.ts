// Bundles host.tsx for the browser into the folder given as the argument (host.js). Run by
// test/support/shlink-web.ts as a process of its own: Bun's resolver remembers that
// test/shlink-web/node_modules was missing when the test process started, so a bundle made in
// that process right after `npm ci` cannot find the packages just installed.
import { join } from "node:path";

const out = process.argv[2];
if (out === undefined) throw new Error("usage: bun test/shlink-web/bundle.ts <output folder>");
const bundle = await Bun.build({
  entrypoints: [join(import.meta.dir, "host.tsx")],
  target: "browser",
  outdir: out,
  naming: "host.js",
  minify: true,
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!bundle.success) {
  console.error(bundle.logs.map(String).join("\n"));
  process.exit(1);
}
