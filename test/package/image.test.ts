// The container image of `npm run release:image`, as users get it: what skopeo reads from the
// layout for both architectures; Podman running it with the options deploy/compose.yaml and the
// quadlet set, as the image's user and as an arbitrary uid, through create, redirect, stats,
// SIGTERM and a second container on the same data; the arm64 image under qemu; the healthcheck.
// Also: a second build from the same binaries gives the same digests, and the push script
// publishes it to a registry (Debian's docker-registry) unchanged.
// CI sets SHORTENER_IMAGE_DIR (the OCI layout) and SHORTENER_RELEASE_DIR (the binaries it came
// from); without the first, everything here is skipped. Runs as root (rootful Podman, binfmt_misc).
// The binary inside being the release file, byte for byte, is test/release/artifacts.test.ts's.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTar } from "../../scripts/lib/oci/tar-read.ts";
import type { TarEntry } from "../../scripts/lib/oci/tar.ts";
import { UA } from "../support/clicks.ts";
import { ContainerJanitor, composeRun, ensureForeignArch, podman, podmanOk, processUid, publishedUrl, pullFromLayout, quadletRun } from "../support/containers.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/ports.ts";
import { createLink, REPO_ROOT as ROOT } from "../support/server.ts";

const IMAGE_DIR = process.env.SHORTENER_IMAGE_DIR;
const RELEASE_DIR = process.env.SHORTENER_RELEASE_DIR;
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const COMPOSE = join(ROOT, "deploy/compose.yaml");
const QUADLET = join(ROOT, "deploy/podman/shortener.container");
const IMAGE_REF = `ghcr.io/shortener/shortener:${VERSION}`;
const HEALTH_CMD = ["/usr/local/bin/shortener", "healthcheck"];
// Limits, not expectations: pulls, starts and (for arm64) emulation are slow on a busy machine.
const SLOW = 120_000;
const ARCHES = [
  { architecture: "amd64", elfMachine: 62 },
  { architecture: "arm64", variant: "v8", elfMachine: 183 },
] as const;
const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;

function skopeo(args: string[]): string {
  const run = Bun.spawnSync(["skopeo", ...args], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`skopeo ${args.join(" ")} failed: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

const layoutRef = () => `oci:${IMAGE_DIR}:${VERSION}`;
const overrideArch = (a: (typeof ARCHES)[number]) => ["--override-arch", a.architecture, ...("variant" in a ? ["--override-variant", a.variant] : [])];

/** The one layer of an architecture's image, as entries by path (read from the layout's blobs). */
function layerEntries(a: (typeof ARCHES)[number]): Map<string, TarEntry> {
  const blob = (digest: string) => readFileSync(join(IMAGE_DIR!, "blobs", ...digest.split(":")));
  const index = JSON.parse(skopeo(["inspect", "--raw", layoutRef()]));
  const entry = index.manifests.find((m: any) => m.platform.architecture === a.architecture);
  const manifest = JSON.parse(blob(entry.digest).toString());
  expect(manifest.layers).toHaveLength(1);
  return new Map(readTar(Bun.gunzipSync(blob(manifest.layers[0].digest))).map((e) => [e.path, e]));
}

async function waitForHealth(url: string, within = 60_000): Promise<Response | null> {
  return await eventually(async () => fetch(`${url}/health`).catch(() => null), (r) => r?.status === 200, within, 200);
}

/** Create, redirect, count: the service's job, through the container's published port. */
async function createAndClick(url: string, destination: string): Promise<string> {
  const created = await createLink(url, { url: destination });
  expect(created.status).toBe(201);
  const shortUrl: string = created.body.data.shortUrl;
  const id = new URL(shortUrl).pathname.slice(1);
  const redirect = await fetch(`${url}/${id}`, { redirect: "manual", headers: { "user-agent": UA.firefoxLinux } });
  expect(redirect.status).toBe(302);
  expect(redirect.headers.get("location")).toBe(destination);
  expect(await totalClicks(url, id, 1)).toBe(1);
  return id;
}

async function totalClicks(url: string, id: string, expected: number): Promise<number> {
  const stats = await eventually(async () => (await fetch(`${url}/api/stats?id=${id}`)).json(), (s: any) => s.data?.stats.totalClicks >= expected);
  return stats.data?.stats.totalClicks;
}

const logs = (container: string) => {
  const run = podman(["logs", container]);
  return run.stdout + run.stderr;
};

/** SIGTERM through `podman stop` (20 s before SIGKILL, as the deploy files say); the exit code. */
function stop(container: string): number {
  podmanOk(["stop", "--time", "20", container]);
  return Number(podmanOk(["inspect", "--format", "{{.State.ExitCode}}", container]));
}

if (!IMAGE_DIR) test.skip("container image: SHORTENER_IMAGE_DIR is not set (CI sets it to the OCI layout of npm run release:image)", () => {});
else describe("container image", () => {
  const janitor = new ContainerJanitor();
  const folders: string[] = [];
  afterAll(() => {
    janitor.clean();
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });

  describe("the layout, as skopeo reads it", () => {
    test("one index named by the version, over linux/amd64 and linux/arm64/v8, annotated with what it is", () => {
      const index = JSON.parse(skopeo(["inspect", "--raw", layoutRef()]));
      expect(index.mediaType).toBe("application/vnd.oci.image.index.v1+json");
      expect(index.manifests.map((m: any) => m.platform)).toEqual([{ architecture: "amd64", os: "linux" }, { architecture: "arm64", os: "linux", variant: "v8" }]);
      expect(index.annotations).toMatchObject({ "org.opencontainers.image.version": VERSION, "org.opencontainers.image.source": "https://github.com/shortener/shortener" });
    });

    for (const a of ARCHES) {
      test(`${a.architecture}: platform, labels, and how it runs (user 65532, /data, port 8080, the healthcheck)`, () => {
        const inspect = JSON.parse(skopeo(["inspect", ...overrideArch(a), layoutRef()]));
        expect(inspect).toMatchObject({ Architecture: a.architecture, Os: "linux" });
        expect(inspect.Labels).toMatchObject({
          "org.opencontainers.image.version": VERSION,
          "org.opencontainers.image.title": "shortener",
          "org.opencontainers.image.licenses": "MIT",
          "org.opencontainers.image.source": "https://github.com/shortener/shortener",
        });
        expect(inspect.Labels["org.opencontainers.image.revision"]).toMatch(/^[0-9a-f]{40}$/);
        expect(inspect.Labels["org.opencontainers.image.created"]).toBe(inspect.Created);
        // The raw config: skopeo's summary leaves out Healthcheck, which Docker reads from it.
        const config = JSON.parse(skopeo(["inspect", "--config", "--raw", ...overrideArch(a), layoutRef()]));
        expect(config.config).toMatchObject({
          User: "65532:65532",
          Entrypoint: ["/usr/local/bin/shortener"],
          ExposedPorts: { "8080/tcp": {} },
          Volumes: { "/data": {} },
          WorkingDir: "/data",
          Healthcheck: { Test: ["CMD", ...HEALTH_CMD] },
        });
        expect(config.config.Cmd).toBeUndefined(); // a --port there would beat SHORTENER_PORT
        expect(config.config.Env).toEqual(expect.arrayContaining(["SHORTENER_DB=/data/shortener.db", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"]));
      });

      test(`${a.architecture}: the file system: the binary for it, /data for 65532, accounts, CA bundle, licenses, no docs or tools`, () => {
        const files = layerEntries(a);
        const binary = files.get("usr/local/bin/shortener");
        expect(binary).toMatchObject({ type: "file", mode: 0o755, uid: 0 });
        expect(Buffer.from(binary!.data!.subarray(18, 20)).readUInt16LE()).toBe(a.elfMachine);
        expect(files.get("data")).toMatchObject({ type: "dir", mode: 0o755, uid: 65532, gid: 65532 });
        expect(files.get("tmp")).toMatchObject({ type: "dir", mode: 0o1777 });
        const text = (path: string) => new TextDecoder().decode(files.get(path)?.data);
        expect(text("etc/passwd")).toContain("nonroot:x:65532:65532:");
        expect(text("etc/group")).toContain("nonroot:x:65532:");
        expect(text("etc/ssl/certs/ca-certificates.crt").match(/-----BEGIN CERTIFICATE-----/g)?.length).toBeGreaterThan(100);
        expect(text("usr/lib/os-release")).toContain("VERSION_CODENAME=bookworm");
        expect(text("usr/share/doc/shortener/LICENSE")).toBe(readFileSync(join(ROOT, "LICENSE"), "utf8"));
        expect(text("usr/share/doc/shortener/NOTICE.md")).toBe(readFileSync(join(ROOT, "NOTICE.md"), "utf8"));
        const loader = a.architecture === "amd64" ? "lib64/ld-linux-x86-64.so.2" : "lib/ld-linux-aarch64.so.1";
        expect(files.has(loader)).toBe(true);
        for (const pkg of ["libc6", "libgcc-s1", "ca-certificates", "tzdata", "netbase"]) expect(files.has(`var/lib/dpkg/status.d/${pkg}`)).toBe(true);
        const paths = [...files.keys()];
        expect(paths.filter((p) => /^usr\/share\/doc\/[^/]+\/./.test(p) && !/\/copyright$/.test(p) && !p.startsWith("usr/share/doc/shortener/"))).toEqual([]);
        expect(paths.filter((p) => p.startsWith("usr/share/man") || p.startsWith("usr/sbin/") || p.startsWith("bin/") || p.startsWith("usr/bin/"))).toEqual([]);
        expect(paths.filter((p) => files.get(p)!.uid !== 0 && p !== "data" && p !== "home/nonroot")).toEqual([]);
      });
    }
  });

  describe("deploy files", () => {
    test("compose.yaml and the quadlet name this version's image, publish 8080, keep /data in a named volume, and check health with the image's command", () => {
      const compose = Bun.YAML.parse(readFileSync(COMPOSE, "utf8")) as any;
      const service = compose.services.shortener;
      expect(service.image).toBe(IMAGE_REF);
      expect(service.ports).toEqual(["8080:8080"]);
      expect(service.volumes).toEqual(["data:/data"]);
      expect(Object.keys(compose.volumes)).toEqual(["data"]);
      expect(service.healthcheck.test).toEqual(["CMD", ...HEALTH_CMD]);
      expect(service.restart).toBe("unless-stopped");
      const quadlet = readFileSync(QUADLET, "utf8");
      expect(quadlet).toMatch(new RegExp(`^Image=${IMAGE_REF.replaceAll(".", "\\.")}$`, "m"));
      expect(quadlet).toMatch(/^PublishPort=8080:8080$/m);
      expect(quadlet).toMatch(/^Volume=shortener-data:\/data$/m);
      // A JSON array: as a plain string Podman would hand it to /bin/sh, which the image lacks.
      expect(JSON.parse(/^HealthCmd=(.*)$/m.exec(quadlet)?.[1] ?? "null")).toEqual(HEALTH_CMD);
      expect(quadlet).toMatch(/^Restart=always$/m);
    });
  });

  describe("podman, as the image's user (65532), with compose.yaml's options and a named volume", () => {
    let volume = "";
    let first = "";
    let url = "";
    let id = "";

    beforeAll(async () => {
      janitor.image(pullFromLayout(IMAGE_DIR, VERSION, { architecture: "amd64" }, IMAGE_REF));
      volume = janitor.volume(`shortener-test-data-${RUN_ID}`);
      podmanOk(["volume", "create", volume]);
      first = janitor.container(`shortener-test-compose-${RUN_ID}`);
      const compose = composeRun(COMPOSE, "shortener", { data: volume });
      podmanOk(["run", "--detach", "--pull", "never", "--name", first, ...compose.args, compose.image]);
      url = publishedUrl(first, 8080);
    }, SLOW);

    test("/health answers 200 with this version", async () => {
      const health = await waitForHealth(url);
      expect(health?.status).toBe(200);
      expect(await health!.json()).toMatchObject({ status: "ok", version: VERSION, db: "ok" });
      expect(logs(first)).toMatch(/^database \/data\/shortener\.db$/m);
    }, SLOW);

    test("runs as uid 65532, and the database in the volume is its", () => {
      expect(processUid(first)).toBe(65532);
      const mountpoint = podmanOk(["volume", "inspect", "--format", "{{.Mountpoint}}", volume]);
      expect(statSync(join(mountpoint, "shortener.db")).uid).toBe(65532);
    });

    test("create a link, follow its redirect, see the click counted", async () => {
      id = await createAndClick(url, "https://example.com/in-a-container");
    }, SLOW);

    test("healthcheck: compose's (podman healthcheck run), the image's command, and a failing one", () => {
      expect(podman(["healthcheck", "run", first]).exitCode).toBe(0);
      expect(podman(["exec", first, ...HEALTH_CMD]).exitCode).toBe(0);
      const refused = podman(["exec", first, ...HEALTH_CMD, "--port", "1"]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/^shortener healthcheck: http:\/\/127\.0\.0\.1:1\/health: /m);
    }, SLOW);

    test("SIGTERM (podman stop): writes the queued visits and exits 0", () => {
      expect(stop(first)).toBe(0);
      expect(logs(first)).toMatch(/^SIGTERM: stopping$/m);
      expect(logs(first)).toMatch(/^stopped visitsWritten=1 visitsDropped=0$/m);
    }, SLOW);

    test("a second container on the same volume has the link and its click", async () => {
      const second = janitor.container(`shortener-test-compose2-${RUN_ID}`);
      const compose = composeRun(COMPOSE, "shortener", { data: volume });
      podmanOk(["run", "--detach", "--pull", "never", "--name", second, ...compose.args, compose.image]);
      const url2 = publishedUrl(second, 8080);
      expect((await waitForHealth(url2))?.status).toBe(200);
      expect(await totalClicks(url2, id, 1)).toBe(1);
      const redirect = await fetch(`${url2}/${id}`, { redirect: "manual", headers: { "user-agent": UA.chromeWindows } });
      expect(redirect.headers.get("location")).toBe("https://example.com/in-a-container");
      expect(await totalClicks(url2, id, 2)).toBe(2);
      expect(stop(second)).toBe(0);
    }, SLOW);
  });

  describe("podman, as an arbitrary uid (12345) with a /data folder it owns, with the quadlet's options", () => {
    let container = "";
    let data = "";
    let url = "";

    beforeAll(async () => {
      janitor.image(pullFromLayout(IMAGE_DIR, VERSION, { architecture: "amd64" }, IMAGE_REF));
      data = mkdtempSync(join(tmpdir(), "shortener-image-data-"));
      folders.push(data);
      chownSync(data, 12345, 12345);
      container = janitor.container(`shortener-test-quadlet-${RUN_ID}`);
      const quadlet = quadletRun(QUADLET, { "shortener-data": data });
      podmanOk(["run", "--detach", "--pull", "never", "--name", container, "--user", "12345:12345", ...quadlet.args, quadlet.image]);
      url = publishedUrl(container, 8080);
    }, SLOW);

    test("serves /health, create, redirect and stats, writing its database as 12345", async () => {
      expect((await waitForHealth(url))?.status).toBe(200);
      expect(processUid(container)).toBe(12345);
      await createAndClick(url, "https://example.com/any-uid");
      expect(statSync(join(data, "shortener.db")).uid).toBe(12345);
    }, SLOW);

    test("the quadlet's HealthCmd passes (podman healthcheck run)", () => {
      expect(podman(["healthcheck", "run", container]).exitCode).toBe(0);
    }, SLOW);

    test("SIGTERM: exits 0", () => {
      expect(stop(container)).toBe(0);
      expect(logs(container)).toMatch(/^stopped visitsWritten=1 visitsDropped=0$/m);
    }, SLOW);
  });

  describe("the arm64 image under qemu (binfmt_misc)", () => {
    let image = "";

    beforeAll(() => {
      ensureForeignArch("arm64");
      image = janitor.image(pullFromLayout(IMAGE_DIR, VERSION, { architecture: "arm64", variant: "v8" }));
    }, SLOW);

    test("is arm64, and its binary prints this version", () => {
      expect(podmanOk(["image", "inspect", "--format", "{{.Architecture}}", image])).toBe("arm64");
      const run = podman(["run", "--name", janitor.container(`shortener-test-arm64-version-${RUN_ID}`), image, "--version"]);
      expect(run.stdout).toMatch(new RegExp(`^shortener ${VERSION.replaceAll(".", "\\.")} \\(`));
    }, SLOW);

    test("serves /health, passes its healthcheck, and stops with exit 0", async () => {
      const container = janitor.container(`shortener-test-arm64-${RUN_ID}`);
      const volume = janitor.volume(`shortener-test-arm64-data-${RUN_ID}`);
      podmanOk(["run", "--detach", "--name", container, ...composeRun(COMPOSE, "shortener", { data: volume }).args, image]);
      const health = await waitForHealth(publishedUrl(container, 8080), SLOW / 2);
      expect(health?.status).toBe(200);
      expect(podman(["exec", container, ...HEALTH_CMD]).exitCode).toBe(0);
      expect(stop(container)).toBe(0);
    }, SLOW);
  });

  if (!RELEASE_DIR) test.skip("reproducible: SHORTENER_RELEASE_DIR is not set (the binaries to build the image again from)", () => {});
  else test("reproducible: a second build from the same binaries has the same index digest and the same blobs", () => {
    const again = mkdtempSync(join(tmpdir(), "shortener-image-again-"));
    folders.push(again);
    const out = join(again, "image");
    const build = Bun.spawnSync([process.execPath, join(ROOT, "scripts/release-image.ts"), "--binaries", RELEASE_DIR, "--out", out], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`release-image failed (${build.exitCode}): ${build.stderr.toString()}`);
    expect(readFileSync(join(out, "index.json"), "utf8")).toBe(readFileSync(join(IMAGE_DIR, "index.json"), "utf8"));
    const digest = (dir: string) => JSON.parse(skopeo(["inspect", "--raw", `oci:${dir}:${VERSION}`])).manifests.map((m: any) => m.digest);
    expect(digest(out)).toEqual(digest(IMAGE_DIR));
  }, SLOW);

  const registry = Bun.which("docker-registry");
  if (!registry) test.skip("push to a registry: Debian's docker-registry is not installed", () => {});
  else describe("scripts/push-image.ts to a registry on 127.0.0.1 (Debian's docker-registry, with a password)", () => {
    let served: ReturnType<typeof Bun.spawn> | null = null;
    let host = "";
    let registryDir = "";
    // The test's own reads log in through a file, as the script does: a password never goes on a command line.
    let authFile = "";
    const user = "pusher";
    const password = `pw-${RUN_ID}`;

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), "shortener-registry-"));
      folders.push(dir);
      registryDir = dir;
      const port = await freePort();
      host = `127.0.0.1:${port}`;
      writeFileSync(join(dir, "htpasswd"), `${user}:${await Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 })}\n`);
      writeFileSync(join(dir, "config.yml"), `version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: ${dir}/data\nhttp:\n  addr: ${host}\nauth:\n  htpasswd:\n    realm: test\n    path: ${dir}/htpasswd\n`);
      served = Bun.spawn([registry, "serve", join(dir, "config.yml")], { stdout: "ignore", stderr: "ignore" });
      // A TCP probe rather than fetch: the test preload holds every 127.0.0.1 reply to the service's API contract.
      const listening = () => Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then((s) => (s.end(), true), () => false);
      await eventually(listening, (up) => up, 15_000);
      authFile = join(dir, "auth.json");
      writeFileSync(authFile, JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${user}:${password}`).toString("base64") } } }), { mode: 0o600 });
    }, SLOW);

    afterAll(async () => {
      served?.kill("SIGTERM");
      await served?.exited;
    });

    const push = (env: Record<string, string>, ...refs: string[]) =>
      Bun.spawnSync([process.execPath, join(ROOT, "scripts/push-image.ts"), "--image", IMAGE_DIR, "--tls-verify=false", ...refs], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });

    test("without credentials the registry refuses it, and the script fails", () => {
      const run = push({ REGISTRY_USERNAME: "", REGISTRY_PASSWORD: "", REGISTRY_AUTH_FILE: join(tmpdir(), `none-${RUN_ID}.json`) }, `${host}/shortener/shortener:${VERSION}`);
      expect(run.exitCode).toBe(1);
      expect(run.stderr.toString()).toMatch(/push-image FAILED: .*(unauthorized|authentication required)/);
    }, SLOW);

    test("a wrong password: the script fails, and leaves no login file behind", () => {
      const tmp = join(registryDir, "tmp");
      mkdirSync(tmp);
      const run = push({ REGISTRY_USERNAME: user, REGISTRY_PASSWORD: `${password}-wrong`, TMPDIR: tmp }, `${host}/shortener/shortener:${VERSION}`);
      expect(run.exitCode).toBe(1);
      expect(run.stdout.toString() + run.stderr.toString()).not.toContain(`${password}-wrong`);
      expect(readdirSync(tmp)).toEqual([]);
    }, SLOW);

    test("with REGISTRY_USERNAME/PASSWORD: both tags name the layout's index, both architectures pull back, the password is never printed", () => {
      const run = push({ REGISTRY_USERNAME: user, REGISTRY_PASSWORD: password }, `${host}/shortener/shortener:${VERSION}`, `${host}/shortener/shortener:latest`);
      const output = run.stdout.toString() + run.stderr.toString();
      expect(run.exitCode).toBe(0);
      expect(output).not.toContain(password);
      const local = JSON.parse(readFileSync(join(IMAGE_DIR, "index.json"), "utf8")).manifests[0].digest;
      for (const tag of [VERSION, "latest"]) {
        for (const a of ARCHES) {
          const remote = JSON.parse(skopeo(["inspect", "--tls-verify=false", `--authfile=${authFile}`, ...overrideArch(a), `docker://${host}/shortener/shortener:${tag}`]));
          expect(remote).toMatchObject({ Digest: local, Architecture: a.architecture });
        }
      }
      const pulled = mkdtempSync(join(tmpdir(), "shortener-pulled-"));
      folders.push(pulled);
      const back = join(pulled, "layout");
      skopeo(["copy", "--all", "--preserve-digests", "--src-tls-verify=false", `--src-authfile=${authFile}`, `docker://${host}/shortener/shortener:${VERSION}`, `oci:${back}:${VERSION}`]);
      expect(JSON.parse(skopeo(["inspect", "--raw", `oci:${back}:${VERSION}`])).manifests).toEqual(JSON.parse(skopeo(["inspect", "--raw", layoutRef()])).manifests);
      expect(existsSync(join(back, "index.json"))).toBe(true);
    }, SLOW);
  });
});
