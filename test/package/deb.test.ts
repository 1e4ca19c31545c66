// The .debs of `npm run release:deb`: lintian on both, what the arm64 one carries (its binary run
// under qemu), and the amd64 one for real in a booted Debian (systemd-nspawn): install, start,
// requests, reload, restart, settings, the key commands as root against the dynamic user's
// database, remove and purge. CI points SHORTENER_DEB_DIR at dist/deb after npm run release:deb;
// without it, everything here is skipped. Needs root, lintian, debootstrap, systemd-container and
// qemu-user-static, and reaches Debian's mirror once (the debootstrap cache).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { extractFile } from "../../scripts/lib/deb/build-deb.ts";
import { debFileName, DEB_TARGETS, type DebArch } from "../../scripts/lib/deb/control.ts";
import { environmentFlags } from "../../scripts/lib/deb/env-defaults.ts";
import { PATHS, STATE } from "../../scripts/lib/deb/layout.ts";
import { bootContainer, debootstrapped, type Container, type Run } from "../support/nspawn.ts";
import { UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

const DEB_DIR = process.env.SHORTENER_DEB_DIR;
const VERSION = (JSON.parse(readFileSync(resolve(import.meta.dir, "../../package.json"), "utf8")) as { version: string }).version;
const VERSION_LINE = new RegExp(`^shortener ${VERSION.replaceAll(".", "\\.")} \\(`);
const deb = (arch: DebArch) => join(DEB_DIR!, debFileName(VERSION, arch));
// Limits, not expectations: lintian reads a 128 MB executable, a boot copies a Debian tree.
const SLOW = 120_000;

function host(cmd: string[]): Run {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/**
 * Lintian's findings at every level it has (errors, warnings, info, pedantic), the package's
 * overrides applied, and its exit code, which fails on any of them. An override that matched
 * nothing is itself an info finding (unused-override): the overrides cannot go stale silently.
 */
async function lintian(file: string): Promise<{ code: number; findings: string[] }> {
  const proc = Bun.spawn(["lintian", "--display-info", "--pedantic", "--fail-on", "error,warning,info,pedantic", file], { stdout: "pipe", stderr: "pipe" });
  const lines = (await new Response(proc.stdout).text()).split("\n");
  return { code: await proc.exited, findings: lines.filter((l) => /^[EWIPX]: /.test(l)) };
}

/** The package's binary, written out to run and then deleted (it is 128 MB). */
function withPackagedBinary<T>(arch: DebArch, use: (bin: string) => T): T {
  const folder = mkdtempSync(join(tmpdir(), "shortener-deb-test-"));
  try {
    const bin = join(folder, "shortener");
    writeFileSync(bin, extractFile(deb(arch), PATHS.binary), { mode: 0o755 });
    return use(bin);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const packagedText = (arch: DebArch, path: string) => new TextDecoder().decode(extractFile(deb(arch), path));

// One skip line that says why, rather than every test and hook skipped one by one.
if (!DEB_DIR) test.skip("the .debs (lintian, contents, install to purge in systemd-nspawn): SHORTENER_DEB_DIR is not set (CI sets it after npm run release:deb)", () => {});
else {
  const fileStarted = performance.now();
  // Both lintian runs start at once and meanwhile the container boots; each test awaits its own.
  const lint = Object.fromEntries(DEB_TARGETS.map(({ arch }) => [arch, lintian(deb(arch))])) as Record<DebArch, ReturnType<typeof lintian>>;

  afterAll(() => {
    console.log(`test/package/deb.test.ts: ${((performance.now() - fileStarted) / 1000).toFixed(1)} s in all`);
  });

  describe("lintian, with the overrides the package ships (each with its reason)", () => {
    for (const { arch } of DEB_TARGETS) {
      test(`${arch}: no error, warning, info or pedantic finding`, async () => {
        const { code, findings } = await lint[arch];
        expect(findings).toEqual([]);
        expect(code).toBe(0);
      }, SLOW);
    }
  });

  describe("what the packages carry", () => {
    test("both architectures carry the same files, at the same modes", () => {
      const listing = (arch: DebArch) => host(["dpkg-deb", "--contents", deb(arch)]).stdout.split("\n").map((l) => l.split(/\s+/)).map((f) => `${f[0]} ${f[1]} ${f[5]}`);
      expect(listing("arm64")).toEqual(listing("amd64"));
      expect(listing("amd64")).toContain(`-rwxr-xr-x root/root ./${PATHS.binary}`);
      expect(host(["dpkg-deb", "--field", deb("arm64"), "Architecture"]).stdout.trim()).toBe("arm64");
      expect(host(["dpkg-deb", "--field", deb("amd64"), "Architecture"]).stdout.trim()).toBe("amd64");
    }, SLOW);

    test("the amd64 binary is ours, unstripped: --version names shortener and its version", () => {
      const run = withPackagedBinary("amd64", (bin) => (process.arch === "x64" ? host([bin, "--version"]) : host(["qemu-x86_64-static", bin, "--version"])));
      expect(run.stdout).toMatch(VERSION_LINE);
    }, SLOW);

    test("the arm64 binary is ours, unstripped: --version under qemu names shortener and its version", () => {
      const { machine, run } = withPackagedBinary("arm64", (bin) => ({
        machine: readFileSync(bin).subarray(18, 20),
        run: process.arch === "arm64" ? host([bin, "--version"]) : host(["qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu", bin, "--version"]),
      }));
      expect(machine).toEqual(Buffer.from([183, 0])); // e_machine EM_AARCH64
      expect(run.stdout).toMatch(VERSION_LINE);
    }, SLOW);

    test("/etc/default/shortener is a conffile listing every setting the environment can give, commented out", () => {
      expect(host(["sh", "-c", `dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./conffiles`, "sh", deb("amd64")]).stdout).toBe(`/${PATHS.defaults}\n`);
      const defaults = packagedText("amd64", PATHS.defaults);
      for (const flag of environmentFlags()) expect(defaults).toContain(`\n#${flag.variable}=\n`);
      expect(defaults.split("\n").filter((l) => l !== "" && !l.startsWith("#"))).toEqual([]);
    }, SLOW);

    test("the unit is the repo's, started from /usr/bin", () => {
      const unit = packagedText("amd64", PATHS.unit);
      const repo = readFileSync(resolve(import.meta.dir, "../../deploy/systemd/shortener.service"), "utf8");
      expect(unit).toBe(repo.replace("ExecStart=/usr/local/bin/shortener", "ExecStart=/usr/bin/shortener"));
    }, SLOW);
  });

  describe("amd64 in a booted Debian (systemd-nspawn)", () => {
    let box: Container;
    let port = 8080;
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    const ok = (script: string): string => {
      const r = box.sh(script);
      if (r.code !== 0) throw new Error(`exit ${r.code}: ${script}\n${r.stdout}${r.stderr}`);
      return r.stdout;
    };
    const mainPid = () => ok("systemctl show --property=MainPID --value shortener").trim();
    const journal = () => ok("journalctl --unit=shortener --no-pager --output=cat");
    const root = (args: string) => box.sh(`shortener ${args} --db ${STATE.db}`);
    async function healthy(): Promise<void> {
      const health = await eventually(async () => box.sh(`curl -fsS ${url("/health")}`), (r) => r.code === 0, 30_000);
      if (health.code !== 0) throw new Error(`no /health on port ${port}:\n${box.sh("systemctl status shortener --no-pager; journalctl -u shortener --no-pager | tail -30").stdout}`);
    }
    /** POST /api/create; the status, the new link's id, the body. */
    function create(destination: string, key?: string): { status: number; id: string; body: string } {
      const auth = key ? `-H 'authorization: Bearer ${key}'` : "";
      const out = ok(`curl -sS -o /tmp/created.json -w '%{http_code}' ${auth} -F url=${destination} ${url("/api/create")}; echo; cat /tmp/created.json`);
      const [status = "", body = ""] = out.split("\n");
      const shortUrl: string | undefined = status === "201" ? JSON.parse(body).data.shortUrl : undefined;
      return { status: Number(status), id: shortUrl ? new URL(shortUrl).pathname.slice(1) : "", body };
    }
    const follow = (id: string) => ok(`curl -sS -o /dev/null -A '${UA.firefoxLinux}' -w '%{http_code} %{redirect_url}' ${url(`/${id}`)}`);

    beforeAll(async () => {
      const image = debootstrapped();
      console.log(image.fresh ? `debootstrap into ${image.path}: ${image.seconds.toFixed(1)} s` : `debootstrap: cached ${image.path}`);
      const t0 = performance.now();
      box = await bootContainer(image.path, [{ host: resolve(DEB_DIR), guest: "/debs" }]);
      console.log(`container copied and booted: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }, 300_000);

    afterAll(async () => {
      await box?.stop();
    }, 60_000);

    test("apt install ./the.deb: enabled, active, the binary answers /health", async () => {
      const install = box.sh(`apt-get install -y --no-install-recommends /debs/${debFileName(VERSION, "amd64")}`, SLOW);
      expect(install.code).toBe(0);
      expect(ok("shortener --version")).toMatch(VERSION_LINE);
      expect(box.sh("systemctl is-enabled shortener").stdout.trim()).toBe("enabled");
      await healthy();
      expect(box.sh("systemctl is-active shortener").stdout.trim()).toBe("active");
      expect(journal()).toContain(`database ${STATE.db}`);
    }, SLOW);

    let linkId = "";
    test("a link created over HTTP redirects", () => {
      const made = create("https://example.com/deb");
      expect(made.status).toBe(201);
      linkId = made.id;
      expect(follow(linkId)).toBe("302 https://example.com/deb");
    });

    test("systemctl reload: succeeds, and the same process goes on serving", async () => {
      const before = mainPid();
      const reloads = journal().match(/^Reloaded /gm)?.length ?? 0;
      expect(box.sh("systemctl reload shortener").code).toBe(0);
      expect(mainPid()).toBe(before);
      expect(journal().match(/^Reloaded /gm)?.length ?? 0).toBe(reloads + 1);
      await healthy();
    });

    test("systemctl restart: a new process, the link still there", async () => {
      const before = mainPid();
      expect(box.sh("systemctl restart shortener").code).toBe(0);
      await healthy();
      expect(mainPid()).not.toBe(before);
      expect(follow(linkId)).toBe("302 https://example.com/deb");
    });

    test("installing again, as an upgrade does: the service restarts onto the package's binary", async () => {
      const before = mainPid();
      expect(box.sh(`dpkg -i /debs/${debFileName(VERSION, "amd64")}`, SLOW).code).toBe(0);
      await healthy();
      expect(mainPid()).not.toBe(before);
      expect(box.sh("systemctl is-enabled shortener").stdout.trim()).toBe("enabled");
    }, SLOW);

    test("settings in /etc/default/shortener apply on restart (a port, a blocklist reloaded by systemctl reload)", async () => {
      ok("echo blocked.example > /etc/shortener-blocklist");
      ok(`sed -i 's|^#SHORTENER_PORT=$|SHORTENER_PORT=8081|; s|^#SHORTENER_BLOCKLIST=$|SHORTENER_BLOCKLIST=/etc/shortener-blocklist|' /${PATHS.defaults}`);
      ok("systemctl restart shortener");
      port = 8081;
      await healthy();
      expect(box.sh("curl -fsS http://127.0.0.1:8080/health").code).not.toBe(0);
      const refused = create("https://blocked.example/x");
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.body).toContain("url_blocked");
      // The binary logs each read of the blocklist: once at start, once more for the reload.
      const reads = () => journal().match(/^blocklist \/etc\/shortener-blocklist: 1 domains/gm)?.length ?? 0;
      const before = reads();
      expect(before).toBeGreaterThan(0);
      ok("systemctl reload shortener");
      expect(await eventually(async () => reads(), (n) => n !== before, 10_000)).toBe(before + 1);
    }, SLOW);

    // Root opens the database that belongs to the dynamic user: nothing it leaves behind may be root's.
    const notTheServices = () => ok(`find ${STATE.real} ! -uid "$(stat -c %u ${STATE.real})"`).trim();

    test("key commands as root while the service runs; the service sees the key at once", () => {
      const key = root("key create running");
      expect(key.code).toBe(0);
      const secret = key.stdout.trim();
      expect(secret).toMatch(/^sk_/);
      expect(root("key list").stdout).toMatch(/^running\s+admin/m);
      // Without --db, from any folder, a command finds the .deb's database (docs/configuration.md: Which database a command uses).
      expect(ok("cd /tmp && shortener key list")).toMatch(/^running\s+admin/m);
      expect(root("user list").code).toBe(0);
      expect(root("webhook list").code).toBe(0);
      expect(box.sh(`shortener backup /root/running.db --db ${STATE.db}`).code).toBe(0);
      expect(ok(`curl -sS -o /dev/null -w '%{http_code}' -H 'authorization: Bearer ${secret}' ${url("/api/links")}`)).toBe("200");
      expect(root("key revoke running").code).toBe(0);
      expect(ok(`curl -sS -o /dev/null -w '%{http_code}' -H 'authorization: Bearer ${secret}' ${url("/api/links")}`)).toBe("401");
      expect(notTheServices()).toBe("");
    });

    test("key commands as root while the service is stopped; then it starts and writes", async () => {
      ok("systemctl stop shortener");
      const key = root("key create stopped");
      expect(key.code).toBe(0);
      expect(root("key list").stdout).toMatch(/^stopped\s+admin/m);
      expect(root("user list").code).toBe(0);
      expect(root("webhook list").code).toBe(0);
      expect(box.sh(`shortener backup /root/stopped.db --db ${STATE.db}`).code).toBe(0);
      expect(notTheServices()).toBe("");
      ok("systemctl start shortener");
      await healthy();
      const made = create("https://example.com/after-root", key.stdout.trim());
      expect(made.status).toBe(201);
      expect(follow(made.id)).toBe("302 https://example.com/after-root");
    }, SLOW);

    test("with the file gone a command makes no database (exit 2, nothing left); the service makes it at its start", async () => {
      ok(`systemctl stop shortener && mkdir -p /root/moved && mv ${STATE.real}/shortener.db* /root/moved/`);
      const refused = root("key create fresh");
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--db names ${STATE.db}, which does not exist`);
      expect(ok(`ls -A ${STATE.real}`).trim()).toBe("");
      expect(box.sh("cd /tmp && shortener key list").code).toBe(2);
      ok("systemctl start shortener");
      await healthy();
      expect(create("https://example.com/fresh").status).toBe(201);
      // The earlier data back, for the purge below to keep.
      ok(`systemctl stop shortener && rm -f ${STATE.real}/shortener.db* && mv /root/moved/shortener.db* ${STATE.real}/ && systemctl start shortener`);
      await healthy();
      expect(follow(linkId)).toBe("302 https://example.com/deb");
    }, SLOW);

    test("dpkg -r: the service stopped, the binary and unit gone, the settings kept", () => {
      expect(box.sh("dpkg -r shortener", SLOW).code).toBe(0);
      expect(box.sh("systemctl is-active shortener").stdout.trim()).not.toBe("active");
      // No procps in a minimal Debian: the process names from /proc.
      expect(box.sh('for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = shortener ] && exit 0; done; exit 1').code).not.toBe(0);
      expect(box.sh(`test -e /${PATHS.binary} || test -e /${PATHS.unit}`).code).not.toBe(0);
      expect(ok(`cat /${PATHS.defaults}`)).toContain("SHORTENER_PORT=8081");
    }, SLOW);

    test("dpkg -P: the settings gone, the data kept, and it says where", () => {
      const purge = box.sh("dpkg -P shortener", SLOW);
      expect(purge.code).toBe(0);
      expect(purge.stdout + purge.stderr).toContain(`the data (links, clicks, keys) stays in ${STATE.real}`);
      expect(box.sh(`test -e /${PATHS.defaults}`).code).not.toBe(0);
      expect(box.sh("dpkg -s shortener").code).not.toBe(0);
      expect(box.sh(`test -s ${STATE.real}/shortener.db`).code).toBe(0);
    }, SLOW);
  });
}
