// n8n's real Yourls node, as n8n ships it: the compiled files of n8n-nodes-base on npm, fetched
// once into the git-ignored .cache/ (never committed: a script can fetch them) and loaded from
// there. The whole package is 11.7 MB with some ninety dependencies (databases, Kafka, PDF, …), so
// only the Yourls node's files and its credential type are taken from the tarball. What they
// require at run time, n8n-workflow (the version this n8n-nodes-base depends on: npm view
// n8n-nodes-base@2.41.2 dependencies), is installed beside them by npm with --ignore-scripts. It is
// no devDependency: it brings 162 packages (143 MB) to every `npm ci`, and one of them,
// isolated-vm 7 (for n8n's expression sandbox, which the node does not use here), fails to build
// on Node 20, failing the whole install.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const N8N_NODES_BASE = "n8n-nodes-base@2.41.2";
/** The registry's dist.integrity of that version (npm view n8n-nodes-base@2.41.2 dist.integrity): a tarball that differs is refused. */
const INTEGRITY = "sha512-qUItyawxR1aR/t6Fgk0whYwBSDR+VOu5RkgAI3AElVI3dqPLLcCAawAMFc/N3GFG35//quOVRUwuc7a3mVLC0g==";
const CACHE_ROOT = resolve(import.meta.dir, "../../.cache");
const CACHE = join(CACHE_ROOT, "n8n-nodes-base-2.41.2");
const WORKFLOW = "n8n-workflow@2.41.0";
/** The package's package.json (no "type": its .js files are CommonJS, whatever our package.json says) and the Yourls node's files. */
const FILES = [
  "package/package.json",
  "package/dist/nodes/Yourls/Yourls.node.js",
  "package/dist/nodes/Yourls/GenericFunctions.js",
  "package/dist/nodes/Yourls/UrlDescription.js",
  "package/dist/credentials/YourlsApi.credentials.js",
];

/** Where the Yourls node's folder is, fetching the files first when the cache lacks any of them. */
export function n8nYourlsFolder(): string {
  if (!cached()) fetchInto();
  return join(CACHE, "package/dist");
}

const cached = () => [...FILES, "node_modules/n8n-workflow/package.json"].every((file) => existsSync(join(CACHE, file)));

function fetchInto(): void {
  mkdirSync(CACHE_ROOT, { recursive: true });
  const work = mkdtempSync(join(CACHE_ROOT, "n8n-fetch-"));
  try {
    npm(["pack", N8N_NODES_BASE, "--pack-destination", work, "--silent"], work);
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (tarball === undefined) throw new Error(`npm pack ${N8N_NODES_BASE} wrote no tarball into ${work}`);
    const integrity = `sha512-${createHash("sha512").update(readFileSync(join(work, tarball))).digest("base64")}`;
    if (integrity !== INTEGRITY) throw new Error(`${N8N_NODES_BASE}: the tarball's integrity is ${integrity}, the registry gave ${INTEGRITY}`);
    const staging = join(work, "files");
    mkdirSync(staging);
    const tar = spawnSync("tar", ["-xzf", join(work, tarball), "-C", staging, ...FILES], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`extracting the Yourls node from ${tarball} failed: ${tar.stderr}`);
    installWorkflow(staging);
    // The SQLite and PostgreSQL runs of the suite may fetch at once (npm test runs them side by
    // side): the first rename wins, and a complete cache is never removed.
    if (cached()) return;
    rmSync(CACHE, { recursive: true, force: true });
    // A rename, so that a run that stops half-way leaves no cache that looks complete.
    try {
      renameSync(staging, CACHE);
    } catch (err) {
      if (!cached()) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** n8n-workflow and what it requires, in node_modules beside the node's files (where its require finds them). */
function installWorkflow(folder: string): void {
  const [name, version] = WORKFLOW.split("@") as [string, string];
  writeFileSync(join(folder, "package.json"), JSON.stringify({ private: true, dependencies: { [name]: version } }));
  npm(["install", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], folder);
}

function npm(args: string[], cwd: string): void {
  const ran = spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 300_000 });
  if (ran.status === 0) return;
  const said = `${ran.stderr ?? ""}${ran.error?.message ?? ""}`.trim().split("\n").slice(-5).join("\n");
  throw new Error(`n8n's Yourls node and n8n-workflow are fetched from the npm registry on the first run (test/support/n8n-package.ts) ` +
    `and \`npm ${args.join(" ")}\` failed (exit ${ran.status}); is the registry reachable?\n${said}`);
}
