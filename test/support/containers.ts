// Running the release image in tests with Podman: daemonless, so there is no service to start,
// stop or leave behind (Docker would need dockerd, its bridge and iptables rules). Rootful: the
// tests run as root, as CI does. Every container, volume and image made is recorded and removed.

import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

export type Run = { exitCode: number; stdout: string; stderr: string };

/**
 * containers.conf for this run. runc: crun refuses hosts with hybrid (v1 + v2) cgroups, which CI
 * machines can have. Ulimits at or under this process's hard limits: Podman's defaults (nofile
 * 1048576) are above them where the process lacks CAP_SYS_RESOURCE, and the container then fails
 * to start ("setrlimit: operation not permitted"). nproc above 32768 failed the same way on such a
 * machine even under its hard limit, hence the cap.
 */
function containersConf(): string {
  const limits = readFileSync("/proc/self/limits", "utf8");
  const hard = (name: string) => {
    const value = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, "m").exec(limits)?.[1];
    return value === undefined || value === "unlimited" ? Infinity : Number(value);
  };
  const nofile = Math.min(hard("Max open files"), 65_536);
  const nproc = Math.min(hard("Max processes"), 32_768);
  const path = join(mkdtempSync(join(tmpdir(), "shortener-podman-")), "containers.conf");
  writeFileSync(path, `[containers]\ndefault_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]\n[engine]\nruntime = "runc"\n`);
  return path;
}

let conf: string | null = null;

// Podman names what it pulls from oci:PATH after PATH, and refuses a PATH with capitals (a
// mkdtemp folder has some): pullFromLayout pulls through this link, whose path is lower case.
const LAYOUT_LINK = `/tmp/shortener-layout-${process.pid}`;

export function podman(args: string[]): Run {
  conf ??= containersConf();
  const run = Bun.spawnSync(["podman", ...args], { env: { ...process.env, CONTAINERS_CONF: conf }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { exitCode: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

/** podman, failing the test with its own words when it fails. */
export function podmanOk(args: string[]): string {
  const run = podman(args);
  if (run.exitCode !== 0) throw new Error(`podman ${args.join(" ")} failed (${run.exitCode}): ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** What a test made, removed in afterAll whatever happened (each removal on its own: one failing does not stop the rest). */
export class ContainerJanitor {
  private containers: string[] = [];
  private volumes: string[] = [];
  private images: string[] = [];

  container(name: string): string {
    this.containers.push(name);
    return name;
  }
  volume(name: string): string {
    this.volumes.push(name);
    return name;
  }
  image(id: string): string {
    this.images.push(id);
    return id;
  }

  clean(): void {
    // --volumes: also the anonymous volume the image's VOLUME /data gets when a run mounts none there.
    for (const c of this.containers) podman(["rm", "--force", "--volumes", "--time", "0", c]);
    for (const v of this.volumes) podman(["volume", "rm", "--force", v]);
    for (const i of this.images) podman(["rmi", "--force", i]);
    rmSync(LAYOUT_LINK, { force: true });
    if (conf) rmSync(dirname(conf), { recursive: true, force: true });
    conf = null;
  }
}

/**
 * Stores one platform of the layout's image; returns its id (the config's digest, without
 * "sha256:"). `as` names it too, e.g. the ref a deploy file runs (`podman run --pull never` then
 * finds it here instead of asking the registry; quadlet's AutoUpdate= wants a full name).
 */
export function pullFromLayout(layoutDir: string, ref: string, platform: { architecture: string; variant?: string }, as?: string): string {
  const variant = platform.variant ? ["--variant", platform.variant] : [];
  if (!existsSync(LAYOUT_LINK)) symlinkSync(resolve(layoutDir), LAYOUT_LINK);
  else if (readlinkSync(LAYOUT_LINK) !== resolve(layoutDir)) throw new Error(`${LAYOUT_LINK} points elsewhere than ${layoutDir}`);
  const id = podmanOk(["pull", "--quiet", "--arch", platform.architecture, ...variant, `oci:${LAYOUT_LINK}:${ref}`]);
  if (as) podmanOk(["tag", id, as]);
  return id;
}

/** The URL a container's published port answers on (published as 127.0.0.1::<port>, so the host picked it). */
export function publishedUrl(container: string, port: number): string {
  const binding = podmanOk(["port", container, `${port}/tcp`]).split("\n")[0]!;
  return `http://${binding.trim()}`;
}

/** The container's main process as the host sees it: its uid, to check whom it runs as. */
export function processUid(container: string): number {
  const pid = podmanOk(["inspect", "--format", "{{.State.Pid}}", container]);
  const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(uid);
}

/**
 * binfmt_misc with qemu for the other architecture, so that its image runs here. Idempotent: a CI
 * machine starts without binfmt_misc mounted. The F flag (qemu opened when registered) is what
 * lets the interpreter run inside a container's root, which has no qemu of its own.
 */
export function ensureForeignArch(architecture: "amd64" | "arm64"): void {
  const native = process.arch === "arm64" ? "arm64" : "amd64";
  if (architecture === native) return;
  const name = architecture === "arm64" ? "qemu-aarch64" : "qemu-x86_64";
  const dir = "/proc/sys/fs/binfmt_misc";
  const sh = (cmd: string[]) => {
    const run = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
    if (run.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${run.exitCode}): ${run.stderr.toString().trim()} (needs root, qemu-user-static and binfmt-support)`);
  };
  if (!existsSync(join(dir, "register"))) sh(["mount", "-t", "binfmt_misc", "binfmt_misc", dir]);
  const entry = () => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : "");
  if (!entry().startsWith("enabled")) sh(["update-binfmts", "--enable", name]);
  if (!entry().startsWith("enabled")) throw new Error(`${name} is not enabled in ${dir} after update-binfmts --enable`);
  if (!/^flags: \S*F/m.test(entry())) throw new Error(`${name} lacks the F flag in ${dir}: its interpreter cannot run inside a container`);
}

/** `podman run` options from a deploy file, with what a test must change: ports, volume names. */
export type DeployRun = { image: string; args: string[] };
/** For each named volume in the file, the volume (or host folder) the test mounts in its place. */
export type Mounts = Record<string, string>;

/** 127.0.0.1 and a port the host picks: tests run side by side and must not clash, nor listen outside. */
function publish(mapping: string): string[] {
  const containerPort = mapping.split(":").at(-1)!.replace(/\/tcp$/, "");
  return ["--publish", `127.0.0.1::${containerPort}`];
}

function mount(spec: string, mounts: Mounts): string[] {
  const [source, target, ...rest] = spec.split(":");
  const replaced = mounts[source!];
  if (!replaced) throw new Error(`volume ${source} of the deploy file has no stand-in in the test`);
  return ["--volume", [replaced, target, ...rest].join(":")];
}

function seconds(duration: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration);
  if (!m || duration === "") throw new Error(`duration ${duration}: expected like 20s or 1m30s`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

/**
 * The options deploy/compose.yaml gives a service, as podman run flags. Every key is translated or
 * refused: an option added to the file that the test does not know fails here, instead of going
 * untested.
 */
export function composeRun(path: string, service: string, mounts: Mounts): DeployRun {
  const file = Bun.YAML.parse(readFileSync(path, "utf8")) as { services?: Record<string, Record<string, unknown>> };
  const spec = file.services?.[service];
  if (!spec) throw new Error(`${path} has no service ${service}`);
  const args: string[] = [];
  let image = "";
  for (const [key, value] of Object.entries(spec)) {
    const list = () => (Array.isArray(value) ? value.map(String) : [String(value)]);
    switch (key) {
      case "image": image = String(value); break;
      case "restart": args.push("--restart", String(value)); break;
      case "ports": for (const p of list()) args.push(...publish(p)); break;
      case "volumes": for (const v of list()) args.push(...mount(v, mounts)); break;
      case "environment":
        for (const [k, v] of Array.isArray(value) ? value.map((e) => String(e).split(/=(.*)/s)) : Object.entries(value as object)) args.push("--env", `${k}=${v}`);
        break;
      case "user": args.push("--user", String(value)); break;
      case "read_only": if (value === true) args.push("--read-only"); break;
      case "tmpfs": for (const t of list()) args.push("--tmpfs", t); break;
      case "cap_drop": for (const c of list()) args.push("--cap-drop", c); break;
      case "security_opt": for (const s of list()) args.push("--security-opt", s); break;
      case "stop_grace_period": args.push("--stop-timeout", String(seconds(String(value)))); break;
      case "healthcheck": {
        const h = value as { test: string | string[]; interval?: string; timeout?: string; start_period?: string; retries?: number };
        // ["CMD", ...argv] runs argv itself; a string or CMD-SHELL needs a /bin/sh the image lacks.
        const test = Array.isArray(h.test) && h.test[0] === "CMD" ? JSON.stringify(h.test.slice(1)) : Array.isArray(h.test) ? h.test.slice(1).join(" ") : h.test;
        args.push("--health-cmd", test);
        if (h.interval) args.push("--health-interval", h.interval);
        if (h.timeout) args.push("--health-timeout", h.timeout);
        if (h.start_period) args.push("--health-start-period", h.start_period);
        if (h.retries !== undefined) args.push("--health-retries", String(h.retries));
        break;
      }
      default: throw new Error(`${path}: the test does not know how to run the service's "${key}"`);
    }
  }
  return { image, args };
}

/** The [Container] keys of a Podman quadlet, as the podman run flags quadlet generates for them (podman-systemd.unit(5)). */
export function quadletRun(path: string, mounts: Mounts): DeployRun {
  const args: string[] = [];
  let image = "";
  let section = "";
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) { section = header[1]!; continue; }
    if (section !== "Container") continue;
    const eq = line.indexOf("=");
    const [key, value] = [line.slice(0, eq), line.slice(eq + 1)];
    switch (key) {
      case "Image": image = value; break;
      case "ContainerName": break; // each test names its own
      case "PublishPort": args.push(...publish(value)); break;
      case "Volume": args.push(...mount(value, mounts)); break;
      case "Environment": args.push("--env", value); break;
      case "ReadOnly": if (value === "true") args.push("--read-only"); break;
      case "DropCapability": for (const c of value.split(/\s+/)) args.push("--cap-drop", c); break;
      case "NoNewPrivileges": if (value === "true") args.push("--security-opt", "no-new-privileges"); break;
      case "HealthCmd": args.push("--health-cmd", value); break;
      case "HealthInterval": args.push("--health-interval", value); break;
      case "HealthTimeout": args.push("--health-timeout", value); break;
      case "HealthStartPeriod": args.push("--health-start-period", value); break;
      case "HealthRetries": args.push("--health-retries", value); break;
      case "AutoUpdate": args.push("--label", `io.containers.autoupdate=${value}`); break;
      case "PodmanArgs": args.push(...value.split(/\s+/)); break;
      default: throw new Error(`${path}: the test does not know how to run the quadlet key ${key}=`);
    }
  }
  return { image, args };
}
