// npm run release:image [-- --binaries DIR] [--out DIR] [--refresh-debs]
// The container image, multi-arch (linux/amd64, linux/arm64/v8), as an OCI layout in dist/image/
// (index.json names it by the version). Made from the release binaries (dist/release/, from
// `npm run release`), never a second build, on a base of Debian bookworm packages (cached in
// .cache/debian/; offline once cached). Same inputs, same digests. scripts/push-image.ts publishes it.

import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { HEADER_BYTES, headerMismatches, readExecutableHeader } from "./lib/executable-header.ts";
import { readDeb } from "./lib/oci/deb-file.ts";
import { debianPackages } from "./lib/oci/debian-packages.ts";
import { imageConfig, imageLabels, type ImageMeta } from "./lib/oci/image-config.ts";
import { buildLayer } from "./lib/oci/layer.ts";
import { Layout, MEDIA, sha256 } from "./lib/oci/layout.ts";
import { IMAGE_PLATFORMS, type ImagePlatform } from "./lib/oci/platforms.ts";
import { revision, sourceDateEpoch } from "./lib/oci/provenance.ts";
import { buildRootfs } from "./lib/oci/rootfs.ts";

const root = resolve(import.meta.dir, "..");
const { values: args } = parseArgs({
  options: { binaries: { type: "string", default: join(root, "dist/release") }, out: { type: "string", default: join(root, "dist/image") }, "refresh-debs": { type: "boolean", default: false } },
});
const binariesDir = resolve(args.binaries);
const outDir = resolve(args.out);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; description: string; license: string };

function fail(message: string): never {
  console.error(`release:image FAILED: ${message}`);
  process.exit(1);
}

/** The release file for a platform, checked against SHA256SUMS when the folder has one (a release always does). */
function releaseBinary(target: ImagePlatform): Uint8Array {
  const name = `shortener-${pkg.version}-${target.release.name}`;
  const path = join(binariesDir, name);
  if (!existsSync(path)) fail(`${path} is missing: run npm run release first (the image is made from its files, never built anew)`);
  const bytes = new Uint8Array(readFileSync(path));
  const problems = headerMismatches(readExecutableHeader(bytes.subarray(0, HEADER_BYTES)), target.release.header);
  if (problems.length > 0) fail(`${name} is not a ${target.release.name} executable: ${problems.join("; ")}`);
  const sums = join(binariesDir, "SHA256SUMS");
  if (existsSync(sums)) {
    const listed = readFileSync(sums, "utf8").split("\n").find((line) => line.endsWith(`  ${name}`));
    if (!listed) fail(`${name} is not listed in ${sums}`);
    if (`sha256:${listed.split(" ")[0]}` !== sha256(bytes)) fail(`${name} does not match its line in ${sums}`);
  }
  return bytes;
}

/** The binary this machine can run says which commit it is; the labels name HEAD's. Warn when they differ. */
function warnOnOtherCommit(meta: ImageMeta): void {
  const native = IMAGE_PLATFORMS.find((p) => p.release.name === (process.arch === "arm64" ? "linux-arm64" : "linux-x64"));
  if (!native || process.platform !== "linux") return;
  const run = Bun.spawnSync([join(binariesDir, `shortener-${pkg.version}-${native.release.name}`), "--version"], { stdout: "pipe", stderr: "pipe" });
  const stamped = /\(([0-9a-f]+)(-dirty)?,/.exec(run.stdout.toString())?.[1];
  if (stamped && !meta.revision.startsWith(stamped)) console.warn(`  warning: the binaries say commit ${stamped}, the labels name HEAD ${meta.revision.slice(0, 7)}: build the image in the checkout that built them`);
}

// A folder to replace must be an earlier layout (or empty): --out is removed whole before writing.
if (existsSync(outDir) && readdirSync(outDir).length > 0 && !existsSync(join(outDir, "oci-layout"))) fail(`${outDir} is not empty and holds no OCI layout; refusing to replace it`);

const started = performance.now();
const meta: ImageMeta = {
  version: pkg.version,
  revision: revision(root),
  epoch: sourceDateEpoch(root),
  description: pkg.description,
  licenses: pkg.license,
  source: "https://github.com/shortener/shortener",
};
console.log(`release:image ${meta.version} (${meta.revision.slice(0, 7)}, files dated ${new Date(meta.epoch * 1000).toISOString()}) from ${binariesDir}`);
warnOnOtherCommit(meta);

const license = readFileSync(join(root, "LICENSE"));
const notice = readFileSync(join(root, "NOTICE.md"));
rmSync(outDir, { recursive: true, force: true });
const layout = new Layout(outDir);
try {
  // Blobs are named by their digest, so the order they are written in changes nothing; the
  // index lists the manifests in IMAGE_PLATFORMS' order.
  const manifests = await Promise.all(
    IMAGE_PLATFORMS.map(async (target) => {
      const debs = debianPackages(join(root, ".cache/debian"), target.debian, { refresh: args["refresh-debs"], log: console.log }).map(readDeb);
      const packages = debs.map((d) => `${d.name} ${d.version}`).join(", ");
      const entries = buildRootfs({ debs, binary: releaseBinary(target), license, notice });
      const layer = await buildLayer(entries, meta.epoch);
      const layerBlob = layout.blob(MEDIA.layer, layer.gzipped);
      const config = layout.json(MEDIA.config, imageConfig(target.platform, layer.diffId, meta, packages));
      return { target, packages, layer, descriptor: layout.manifest(config, layerBlob, target.platform) };
    }),
  );
  const index = layout.index(manifests.map((m) => m.descriptor), imageLabels(meta));
  layout.finish(index, meta.version);

  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  for (const { target, packages, layer, descriptor } of manifests) {
    const platform = [target.platform.os, target.platform.architecture, target.platform.variant].filter(Boolean).join("/");
    console.log(`  ${platform.padEnd(15)} manifest ${descriptor.digest}  layer ${mib(layer.gzipped.length)} (${mib(layer.tarSize)} unpacked)`);
    console.log(`  ${"".padEnd(15)} Debian bookworm: ${packages}`);
  }
  console.log(`  index ${index.digest}`);
  console.log(`release:image: oci:${outDir}:${meta.version} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  // No half-written layout to be pushed by mistake.
  rmSync(outDir, { recursive: true, force: true });
  fail(err instanceof Error ? err.message : String(err));
}
