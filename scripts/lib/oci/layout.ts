// An OCI image layout on disk (image-layout.md of the OCI image spec): content-addressed blobs,
// one manifest per platform, an image index over them, and index.json naming that index by the
// version, which is what `skopeo copy --all oci:DIR:<version>` and `podman run oci:DIR:<version>` read.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Platform } from "./platforms.ts";

export const MEDIA = {
  index: "application/vnd.oci.image.index.v1+json",
  manifest: "application/vnd.oci.image.manifest.v1+json",
  config: "application/vnd.oci.image.config.v1+json",
  layer: "application/vnd.oci.image.layer.v1.tar+gzip",
} as const;

export type Descriptor = { mediaType: string; digest: string; size: number; platform?: Platform; annotations?: Record<string, string> };

export function sha256(bytes: Uint8Array): string {
  return `sha256:${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}`;
}

export class Layout {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, "blobs/sha256"), { recursive: true });
  }

  /** Stores bytes under their digest; returns their descriptor. */
  blob(mediaType: string, bytes: Uint8Array): Descriptor {
    const digest = sha256(bytes);
    writeFileSync(join(this.dir, "blobs/sha256", digest.slice("sha256:".length)), bytes);
    return { mediaType, digest, size: bytes.length };
  }

  /** A JSON blob: compact, keys in the order written, so equal documents are equal bytes. */
  json(mediaType: string, document: object): Descriptor {
    return this.blob(mediaType, new TextEncoder().encode(JSON.stringify(document)));
  }

  manifest(config: Descriptor, layer: Descriptor, platform: Platform): Descriptor {
    const manifest = { schemaVersion: 2, mediaType: MEDIA.manifest, config, layers: [layer] };
    return { ...this.json(MEDIA.manifest, manifest), platform };
  }

  index(manifests: readonly Descriptor[], annotations: Record<string, string>): Descriptor {
    return this.json(MEDIA.index, { schemaVersion: 2, mediaType: MEDIA.index, manifests, annotations });
  }

  /** index.json and oci-layout: the layout's entry point, naming the image index by refName. */
  finish(index: Descriptor, refName: string): void {
    const top = { schemaVersion: 2, mediaType: MEDIA.index, manifests: [{ ...index, annotations: { "org.opencontainers.image.ref.name": refName } }] };
    writeFileSync(join(this.dir, "index.json"), JSON.stringify(top));
    writeFileSync(join(this.dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  }
}
