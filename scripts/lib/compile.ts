// The one way the service is compiled: `npm run build` (this machine) and `npm run release` (every
// platform) both come through here, so the flags, entry points and build stamp cannot drift apart.

import { $ } from "bun";
import { join } from "node:path";
import type { BuildStamp } from "../../src/version.ts";
import { readBuildStamp, stampDefines } from "./build-stamp.ts";

/** Another platform's Bun: the `--target` name and that platform's bun executable to embed. */
export type CrossTarget = { bunTarget: string; executable: string };

export type CompileOptions = {
  outfile: string;
  stamp: BuildStamp;
  /** Omitted: this machine's platform, with the Bun that runs this script. */
  cross?: CrossTarget;
  /** Precompiled bytecode; see FLAGS. Defaults to on. */
  bytecode?: boolean;
  /** With bytecode: the functions a run used, laid out first (scripts/lib/bytecode-order.ts). */
  bytecodeOrder?: string;
};

const FLAGS = [
  "--compile",
  // Smaller and faster to start; CI runs the result because minified builds have broken some
  // Elysia handler shapes before (elysia issue 1711).
  "--minify",
  // Embedded in the executable (stack traces name source lines); a .map file is also written beside it.
  "--sourcemap",
  // A compiled Bun binary would otherwise read .env and bunfig.toml from whatever folder it is
  // started in; the service must depend on nothing beside itself but its flags.
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
];
// Precompiled bytecode: about half the time from exec to first answer (measured ~95 vs ~200 ms).
const BYTECODE = "--bytecode";

// Clicks are recorded, and SQLite's longer reads run, in Workers: each file must be an entry point of its own to be embedded.
// Named in the binary by their path below src/, as src/threads/start.ts threadEntry() asks for them.
const ENTRY_POINTS = ["src/main.ts", "src/threads/recorder/entry.ts", "src/threads/reader/entry.ts", "src/threads/import/entry.ts", "src/threads/delivery/entry.ts"];

/** Bundles the web UI (and its asset manifest, which src imports) and reads the build stamp. */
export async function prepareBuild(root: string): Promise<BuildStamp> {
  await $`${process.execPath} ${join(root, "scripts/build-web.ts")}`.cwd(root);
  return readBuildStamp(root);
}

/** Compiles the service into options.outfile; throws when bun build fails. */
export async function compileService(root: string, options: CompileOptions): Promise<void> {
  const bytecode = options.bytecode === false ? [] : [BYTECODE, ...(options.bytecodeOrder ? [`--bytecode-order=${options.bytecodeOrder}`] : [])];
  const flags = [...FLAGS, ...bytecode, ...stampDefines(options.stamp)];
  const cross = options.cross ? [`--target=${options.cross.bunTarget}`, `--compile-executable-path=${options.cross.executable}`] : [];
  const entries = ENTRY_POINTS.map((e) => join(root, e));
  await $`${process.execPath} build ${flags} ${cross} ${entries} --outfile ${options.outfile}`.cwd(root);
}
