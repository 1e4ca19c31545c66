// The OCI image configuration: how a runtime starts the service, and the labels that say what
// the image is. Every value is fixed or comes from the build's inputs, so the bytes repeat.

import type { Platform } from "./platforms.ts";
import { BINARY_PATH, CA_BUNDLE_PATH, DATA_PATH } from "./rootfs.ts";
import { NONROOT } from "./system-files.ts";

const PORT = 8080;
const DB_PATH = `/${DATA_PATH}/shortener.db`;

export type ImageMeta = {
  version: string;
  /** The full commit the binaries were built from. */
  revision: string;
  /** SOURCE_DATE_EPOCH (the commit's time by default), in seconds. */
  epoch: number;
  description: string;
  licenses: string;
  source: string;
};

function createdAt(meta: ImageMeta): string {
  return new Date(meta.epoch * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/** org.opencontainers.image.* labels (in the config) and annotations (on the index), the same set. */
export function imageLabels(meta: ImageMeta): Record<string, string> {
  return {
    "org.opencontainers.image.created": createdAt(meta),
    "org.opencontainers.image.description": meta.description,
    "org.opencontainers.image.licenses": meta.licenses,
    "org.opencontainers.image.revision": meta.revision,
    "org.opencontainers.image.source": meta.source,
    "org.opencontainers.image.title": "shortener",
    "org.opencontainers.image.version": meta.version,
  };
}

const SECOND_NS = 1_000_000_000;

export function imageConfig(platform: Platform, diffId: string, meta: ImageMeta, packages: string): object {
  const created = createdAt(meta);
  return {
    created,
    architecture: platform.architecture,
    os: platform.os,
    ...(platform.variant ? { variant: platform.variant } : {}),
    config: {
      User: `${NONROOT.uid}:${NONROOT.gid}`,
      ExposedPorts: { [`${PORT}/tcp`]: {} },
      Env: ["PATH=/usr/local/bin:/usr/bin:/bin", `SHORTENER_DB=${DB_PATH}`, `SSL_CERT_FILE=/${CA_BUNDLE_PATH}`],
      // No Cmd: port 8080 on every address is the binary's default already, and a flag would beat
      // SHORTENER_PORT given with -e. Arguments after the image name go straight to the binary
      // (`docker run … --base-url https://s.example.org`, or `… key create me`).
      Entrypoint: [`/${BINARY_PATH}`],
      Volumes: { [`/${DATA_PATH}`]: {} },
      WorkingDir: `/${DATA_PATH}`,
      Labels: imageLabels(meta),
      // SIGTERM writes the queued visits, then exits 0 (the default signal, named to be plain).
      StopSignal: "SIGTERM",
      // Not in the OCI spec, but Docker reads it from an OCI config (Podman does not; compose.yaml
      // and the quadlet say it again). The subcommand asks /health on SHORTENER_PORT, as the service listens.
      Healthcheck: { Test: ["CMD", `/${BINARY_PATH}`, "healthcheck"], Interval: 30 * SECOND_NS, Timeout: 10 * SECOND_NS, StartPeriod: 10 * SECOND_NS, Retries: 3 },
    },
    rootfs: { type: "layers", diff_ids: [diffId] },
    history: [{ created, created_by: "npm run release:image", comment: `Debian bookworm ${packages}; shortener ${meta.version} (${meta.revision.slice(0, 7)})` }],
  };
}
