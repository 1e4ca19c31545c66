// The shape of the code (docs/architecture.md): the domain folders hold rules and the ports they
// need and import no engine; the engines' adapters live side by side under src/db/, with the same
// file names where the part is the same.

import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../support/server.ts";

const DOMAIN = ["links", "auth", "stats", "visits", "outbound", "instances"];
const PORTS = ["links", "lister", "stats", "overview", "keys", "sessions", "visit-batches", "visitor-salts", "recorder", "schema", "storage", "instances"];

function sources(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, "src", folder), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join("src", folder, f));
}

/** The module specifiers a file imports (static imports and re-exports). */
function imports(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  return [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

test("no domain file imports an engine: not bun:sqlite, not Bun's SQL, nothing under src/db", () => {
  const offending = DOMAIN.flatMap(sources).flatMap((file) =>
    imports(file).filter((spec) => spec === "bun:sqlite" || spec === "bun" || /(^|\/)db\//.test(spec)).map((spec) => `${file} imports ${spec}`),
  );
  expect(offending).toEqual([]);
  // The check itself reads imports: a file of the adapters is seen to import its engine.
  expect(imports("src/db/sqlite/links.ts")).toContain("bun:sqlite");
});

test("bun:sqlite is imported under src/db only", () => {
  const all = readdirSync(join(REPO_ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join("src", f));
  expect(all.filter((f) => !f.startsWith("src/db/") && imports(f).includes("bun:sqlite"))).toEqual([]);
});

test("each engine has an adapter file of the same name for every port", () => {
  for (const engine of ["sqlite", "postgres"]) {
    const files = new Set(readdirSync(join(REPO_ROOT, "src/db", engine)).map((f) => f.replace(/\.ts$/, "")));
    expect({ engine, missing: PORTS.filter((p) => !files.has(p)) }).toEqual({ engine, missing: [] });
  }
});

test("a worker thread is started only by src/threads/start.ts: no `new Worker` in a domain folder, nor anywhere else in src/", () => {
  const all = readdirSync(join(REPO_ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join("src", f));
  const starters = all.filter((f) => /\bnew\s+Worker\b/.test(readFileSync(join(REPO_ROOT, f), "utf8")));
  expect(starters).toEqual(["src/threads/start.ts"]);
});
