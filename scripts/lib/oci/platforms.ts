// The architectures the image is published for: each one's release binary, Debian architecture
// and OCI platform.

import { RELEASE_TARGETS, type ReleaseTarget } from "../release-targets.ts";
import type { DebianArch } from "./debian-packages.ts";

export type Platform = { architecture: "amd64" | "arm64"; os: "linux"; variant?: "v8" };

export type ImagePlatform = { debian: DebianArch; platform: Platform; release: ReleaseTarget };

function release(name: string): ReleaseTarget {
  const target = RELEASE_TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`no release target ${name}`);
  return target;
}

// glibc builds: the image's base is Debian's glibc. arm64 names its variant, as registries and
// `docker buildx` do for linux/arm64, so that a client asking for linux/arm64/v8 finds it.
export const IMAGE_PLATFORMS: readonly ImagePlatform[] = [
  { debian: "amd64", platform: { architecture: "amd64", os: "linux" }, release: release("linux-x64") },
  { debian: "arm64", platform: { architecture: "arm64", os: "linux", variant: "v8" }, release: release("linux-arm64") },
];
