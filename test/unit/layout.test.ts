// The shape of the code (docs/architecture.md): the domain folders hold rules and the ports they
// need and import no engine; the engines' adapters live side by side under src/db/, with the same
// file names where the part is the same.

import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "../support/server.ts";

const DOMAIN = ["links", "auth", "stats", "visits", "outbound", "instances", "domains"];
const PORTS = ["links", "lister", "stats", "overview", "keys", "sessions", "visit-batches", "visitor-salts", "recorder", "schema", "storage", "instances", "domains"];

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

// Every domain folder, by static import, re-export, import() or require(): no storage engine (its
// client, or our adapters and the opens that pick one), no web framework, no HTTP surface
// (docs/architecture.md: Domain folders, ports, adapters).
const DOMAIN_FOLDERS = ["links", "visits", "stats", "auth", "events", "imports", "ops", "instances", "outbound", "domains", "qr"];
// Bun's SQL client reads YOURLS's own MySQL database there: a source to import from, not one of our engines.
const PEER_DATABASE_CLIENTS = new Set(["src/imports/sources/yourls-connection.ts", "src/imports/sources/yourls.ts"]);

/** Every module a file names: static imports and re-exports (with their clause), import(), require(); a non-literal one as "<expression>". */
function referencedModules(text: string): { spec: string; names: string }[] {
  const found = [...text.matchAll(/^\s*(?:import|export)\b([^;]*?)\bfrom\s*["'`]([^"'`]+)["'`]/gms)].map((m) => ({ spec: m[2]!, names: m[1]! }));
  found.push(...[...text.matchAll(/^\s*import\s*["'`]([^"'`]+)["'`]/gm)].map((m) => ({ spec: m[1]!, names: "" })));
  // As code writes them, "import(" with no space: prose in a comment ("this import (…)") is not one.
  for (const m of text.matchAll(/(?<![\w.$])(?:import|require)\(\s*([^)]*)\)/g)) {
    const literal = /^["'`]([^"'`$]+)["'`]\s*(?:,|$)/.exec(m[1]!.trim());
    found.push({ spec: literal ? literal[1]! : "<expression>", names: "" });
  }
  return found;
}

/** Why a domain file may not name a module, or null when it may. */
function forbidden(file: string, spec: string, names: string): string | null {
  if (spec === "<expression>") return "an import() of a computed name, which cannot be checked";
  if (spec === "bun:sqlite") return "an engine";
  if (spec === "bun" && /\bSQL\b/.test(names) && !PEER_DATABASE_CLIENTS.has(file)) return "an engine (Bun's SQL)";
  if (spec === "elysia" || spec.startsWith("@elysiajs/")) return "the web framework";
  if (!spec.startsWith(".")) return null;
  const target = join(dirname(file), spec);
  if (/^src\/db\/(sqlite|postgres)\//.test(target) || /^src\/db\/open-[^/]+$/.test(target)) return "an engine's adapter";
  if (target.startsWith("src/http/") || target === "src/http") return "the HTTP surface";
  return null;
}

function offences(file: string, text: string): string[] {
  const named = referencedModules(text).flatMap(({ spec, names }) => {
    const why = forbidden(file, spec, names);
    return why === null ? [] : [`${file} imports ${spec}: ${why}`];
  });
  const bunSql = /\bBun\.SQL\b/.test(text) && !PEER_DATABASE_CLIENTS.has(file) ? [`${file} uses Bun.SQL: an engine`] : [];
  return [...named, ...bunSql];
}

test("every domain folder named in the architecture exists (a renamed one would escape the check below)", () => {
  expect(DOMAIN_FOLDERS.filter((folder) => !existsSync(join(REPO_ROOT, "src", folder)))).toEqual([]);
});

test("no domain folder reaches an engine, Elysia or src/http, dynamic imports included", () => {
  const found = DOMAIN_FOLDERS.flatMap(sources).flatMap((file) => offences(file, readFileSync(join(REPO_ROOT, file), "utf8")));
  expect(found).toEqual([]);
});

test("the domain check sees each way a module is reached", () => {
  const planted = [
    `import { Database } from "bun:sqlite";`,
    `import { SQL } from "bun";`,
    `const sql = new Bun.SQL("postgres://127.0.0.1/x");`,
    `import type {\n  Pg,\n} from "../db/postgres/connect.ts";`,
    `export { openStorage } from "../db/open-storage.ts";`,
    `import "../http/web.ts";`,
    `const { Elysia } = await import("elysia");`,
    `const open = await import('../db/sqlite/open.ts');`,
    `const adapter = () => import(\`../db/postgres/\${name}.ts\`);`,
    `const { apiError } = require("../http/responses.ts");`,
  ];
  expect(planted.map((text) => offences("src/events/planted.ts", text).length)).toEqual(planted.map(() => 1));
  // What the domain may use: its own and other domain folders, src/util, src/db/storage.ts's types, Bun's other parts.
  const allowed = [`import { then } from "../util/maybe.ts";`, `import type { Storage } from "../db/storage.ts";`, `import { hash } from "bun";`, `const m = await import("./sources/csv.ts");`];
  expect(allowed.flatMap((text) => offences("src/events/planted.ts", text))).toEqual([]);
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
