// bun scripts/push-image.ts [--image DIR] [--tls-verify=false] [--digest-file FILE] REF [REF...]
// Publishes the OCI layout of `npm run release:image` (dist/image/ by default): the image index and
// every architecture, unchanged (--preserve-digests: the digest pushed is the digest built), to
// each REF, e.g. ghcr.io/shortener/shortener:0.1.0. Then reads the index back and checks its digest.
//
// Credentials: REGISTRY_USERNAME and REGISTRY_PASSWORD when both are set (the password goes to
// `skopeo login` on stdin, into an auth file deleted afterwards); otherwise whatever `skopeo login`,
// `podman login` or `docker login` stored. They are never printed, nor passed on a command line.
// --tls-verify=false is for a test registry on 127.0.0.1 only (plain HTTP). --digest-file writes the
// pushed index's digest (sha256:…) for the release workflow's provenance attestation of the image.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sha256 } from "./lib/oci/layout.ts";

const root = resolve(import.meta.dir, "..");
const { values: args, positionals: refs } = parseArgs({
  allowPositionals: true,
  options: { image: { type: "string", default: join(root, "dist/image") }, "tls-verify": { type: "string", default: "true" }, "digest-file": { type: "string" } },
});

function fail(message: string): never {
  console.error(`push-image FAILED: ${message}`);
  process.exit(1);
}

if (refs.length === 0) fail("name at least one destination, e.g. ghcr.io/shortener/shortener:0.1.0");
if (args["tls-verify"] !== "true" && args["tls-verify"] !== "false") fail(`--tls-verify=${args["tls-verify"]}: true or false`);
const layoutDir = resolve(args.image);

/** The layout's one image, by the ref name index.json gives it (the version). */
function layoutImage(): { source: string; digest: string } {
  let index: { manifests?: { digest: string; annotations?: Record<string, string> }[] };
  try {
    index = JSON.parse(readFileSync(join(layoutDir, "index.json"), "utf8"));
  } catch {
    fail(`${layoutDir} holds no OCI layout (index.json): run npm run release:image first`);
  }
  const named = (index.manifests ?? []).filter((m) => m.annotations?.["org.opencontainers.image.ref.name"]);
  if (named.length !== 1) fail(`${layoutDir}/index.json names ${named.length} images; expected one`);
  const only = named[0]!;
  return { source: `oci:${layoutDir}:${only.annotations!["org.opencontainers.image.ref.name"]}`, digest: only.digest };
}

function skopeo(argv: string[], options: { stdin?: string } = {}): string {
  const run = Bun.spawnSync(["skopeo", ...argv], { stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin), stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) fail(`skopeo ${argv[0]} failed (${run.exitCode}): ${run.stderr.toString().trim()}`);
  return run.stdout.toString();
}

const image = layoutImage();
const destinations = refs.map((ref) => ref.replace(/^docker:\/\//, ""));
const user = process.env.REGISTRY_USERNAME;
const password = process.env.REGISTRY_PASSWORD;
const authDir = user && password ? mkdtempSync(join(tmpdir(), "shortener-push-")) : null;
// On every way out, fail()'s process.exit included (a finally block does not run then): the
// file holds the registry token.
if (authDir) process.on("exit", () => rmSync(authDir, { recursive: true, force: true }));
/** --tls-verify and --authfile, or as `skopeo copy` names them for its destination, with prefix "dest-". */
const registryFlags = (prefix = "") => [`--${prefix}tls-verify=${args["tls-verify"]}`, ...(authDir ? [`--${prefix}authfile=${join(authDir, "auth.json")}`] : [])];
const started = performance.now();
for (const ref of destinations) {
  const registry = ref.split("/")[0]!;
  if (authDir) skopeo(["login", ...registryFlags(), `--username=${user}`, "--password-stdin", registry], { stdin: password });
  console.log(`push-image: ${image.source} (${image.digest}) -> docker://${ref}`);
  skopeo(["copy", "--all", "--preserve-digests", "--retry-times=3", ...registryFlags("dest-"), image.source, `docker://${ref}`]);
  // What a client pulling the tag gets must be the index that was built, byte for byte.
  const pushed = sha256(new TextEncoder().encode(skopeo(["inspect", "--raw", ...registryFlags(), `docker://${ref}`])));
  if (pushed !== image.digest) fail(`${ref} now names ${pushed}, not the layout's ${image.digest}`);
  console.log(`  pushed ${ref.replace(/:[^:/]+$/, "")}@${pushed}`);
}
if (args["digest-file"]) writeFileSync(args["digest-file"], `${image.digest}\n`);
console.log(`push-image: ${destinations.length} destination(s) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
