// One image layer: the rootfs as a tar (its digest is the config's diff_id) and gzipped (its
// digest names the blob). gzip is zlib inside the pinned Bun (package.json), so the bytes repeat:
// the same on x64 and arm64 Bun 1.4.5, measured. Another Bun may compress differently, which
// changes the digests but nothing a runtime sees.

import { gzip } from "node:zlib";
import { sha256 } from "./layout.ts";
import { writeTar, type TarEntry } from "./tar.ts";

// Measured on the two 128 MB binaries (2 cores): level 1 73 MiB in 1.0 s, 6 59 MiB in 3.2 s,
// 9 58 MiB in 8.7 s. 6 is nearly 9's size at a third of its time; every pull pays the size.
const LEVEL = 6;

export type Layer = { diffId: string; tarSize: number; gzipped: Uint8Array };

/** Asynchronous: zlib runs on a worker thread, so the two architectures compress at once. */
export async function buildLayer(entries: readonly TarEntry[], mtime: number): Promise<Layer> {
  const tar = writeTar(entries, mtime);
  const diffId = sha256(tar);
  const gzipped = await new Promise<Uint8Array>((resolve, reject) => {
    gzip(tar, { level: LEVEL }, (err, out) => (err ? reject(err) : resolve(out)));
  });
  return { diffId, tarSize: tar.length, gzipped };
}
