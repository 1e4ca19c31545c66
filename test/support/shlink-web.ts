// Shlink's own web UI, built once for test/browser/shlink-web.test.ts: test/shlink-web/ is a small
// npm package of its own (package.json + package-lock.json with exact pins) whose dependencies,
// @shlinkio/shlink-web-component and its peers, are installed from the registry with `npm ci` into
// test/shlink-web/node_modules (git-ignored) on the first run. They are no devDependency of ours:
// React, Redux, recharts, leaflet, Font Awesome and Tailwind are ~190 MB that only this test needs.
// The page (host.tsx typechecked, then bundled by Bun.build for the browser in a process of its
// own, test/shlink-web/bundle.ts; styles.css compiled by Tailwind's CLI)
// is written into .cache/shlink-web/ (git-ignored) with a stamp of its inputs: a second run whose
// inputs are unchanged reuses it without touching npm.
//
// `npm ci --ignore-scripts`: no package runs anything at install. The lockfile's one install script
// is @parcel/watcher's (a native build fallback, Tailwind's watch mode; prebuilt binaries come as
// optional packages). @shlinkio/shlink-frontend-kit 1.4.0 lists @vitest/browser-playwright as a
// dependency (its own tests' browser runner; its dist never imports it), which would bring vitest
// and playwright; package.json's `overrides` swap it for the empty stub in test/shlink-web/stub/, so
// no playwright package (and so nothing that could download a browser) is installed
// (`npm ls playwright vitest` in test/shlink-web: empty).

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./server.ts";

export const SHLINK_WEB_SOURCE = join(REPO_ROOT, "test/shlink-web");
export const SHLINK_WEB_OUT = join(REPO_ROOT, ".cache/shlink-web");
const INPUTS = ["package.json", "package-lock.json", "tsconfig.json", "host.tsx", "styles.css", "index.html", "bundle.ts"];
const STAMP = "inputs.sha256";

/** The folder holding the built page (index.html, host.js, styles.css), installing and building first when needed. */
export async function shlinkWebSite(): Promise<string> {
  const wanted = inputsDigest();
  const stamp = join(SHLINK_WEB_OUT, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return SHLINK_WEB_OUT;
  if (!installed()) npmCi();
  build(wanted);
  return SHLINK_WEB_OUT;
}

function inputsDigest(): string {
  const hash = createHash("sha256");
  for (const name of INPUTS) hash.update(name).update(readFileSync(join(SHLINK_WEB_SOURCE, name)));
  return hash.digest("hex");
}

/** node_modules matches the lockfile when npm's own record of the install (.package-lock.json) equals it. */
function installed(): boolean {
  const record = join(SHLINK_WEB_SOURCE, "node_modules/.package-lock.json");
  if (!existsSync(record)) return false;
  const lock = JSON.parse(readFileSync(join(SHLINK_WEB_SOURCE, "package-lock.json"), "utf8"));
  const done = JSON.parse(readFileSync(record, "utf8"));
  const versions = (packages: Record<string, { version?: string }>) =>
    JSON.stringify(Object.entries(packages).filter(([path]) => path !== "").map(([path, entry]) => [path, entry.version]).sort());
  return versions(lock.packages) === versions(done.packages);
}

function npmCi(): void {
  const args = ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"];
  const ran = spawnSync("npm", args, { cwd: SHLINK_WEB_SOURCE, encoding: "utf8", timeout: 600_000 });
  if (ran.status === 0) return;
  const said = `${ran.stderr ?? ""}${ran.error?.message ?? ""}`.trim().split("\n").slice(-5).join("\n");
  throw new Error(`Shlink's web UI is installed from the npm registry on the first run (test/support/shlink-web.ts) ` +
    `and \`npm ${args.join(" ")}\` in test/shlink-web failed (exit ${ran.status}); is the registry reachable?\n${said}`);
}

/**
 * Typechecks host.tsx against the installed packages' own types (the component's props, the SDK's
 * client), bundles it and compiles styles.css into a staging folder, then renames that into place.
 */
function build(digest: string): void {
  const tsc = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsc"), ["-p", join(SHLINK_WEB_SOURCE, "tsconfig.json")], { encoding: "utf8", timeout: 300_000 });
  if (tsc.status !== 0) throw new Error(`test/shlink-web/host.tsx does not typecheck against the Shlink packages (exit ${tsc.status}):\n${tsc.stdout}${tsc.stderr}`);
  const staging = `${SHLINK_WEB_OUT}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const bundle = spawnSync(process.execPath, [join(SHLINK_WEB_SOURCE, "bundle.ts"), staging], { encoding: "utf8", timeout: 300_000 });
    if (bundle.status !== 0) throw new Error(`bundling test/shlink-web/host.tsx failed (exit ${bundle.status}):\n${bundle.stderr}${bundle.error?.message ?? ""}`);
    const cli = join(SHLINK_WEB_SOURCE, "node_modules/.bin/tailwindcss");
    const css = spawnSync(cli, ["-i", "styles.css", "-o", join(staging, "styles.css"), "--minify"], { cwd: SHLINK_WEB_SOURCE, encoding: "utf8", timeout: 300_000 });
    if (css.status !== 0) throw new Error(`compiling test/shlink-web/styles.css failed (exit ${css.status}): ${css.stderr}${css.error?.message ?? ""}`);
    writeFileSync(join(staging, "index.html"), readFileSync(join(SHLINK_WEB_SOURCE, "index.html")));
    writeFileSync(join(staging, STAMP), digest);
    rmSync(SHLINK_WEB_OUT, { recursive: true, force: true });
    // A rename, so that a build that stops half-way leaves nothing that looks complete.
    renameSync(staging, SHLINK_WEB_OUT);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Serves the built page on its own 127.0.0.1 port (an origin other than the service's): files by
 * name, and index.html for every other path, as the UI routes in the browser (/server/…/list-short-urls/1).
 */
export function serveShlinkWeb(folder: string): { url: string; port: number; stop: () => void } {
  const types: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html; charset=utf-8" };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const name = new URL(request.url).pathname.slice(1);
      const asset = /^[\w.-]+\.(js|css)$/.test(name) && existsSync(join(folder, name)) ? name : "index.html";
      const type = types[asset.slice(asset.lastIndexOf("."))] ?? "application/octet-stream";
      return new Response(Bun.file(join(folder, asset)), { headers: { "content-type": type } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port as number, stop: () => void server.stop(true) };
}
