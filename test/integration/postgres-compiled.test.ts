// Bun's SQL client inside a compiled executable (`bun build --compile`, with the flags of
// scripts/lib/compile.ts), on the main thread and in a Worker (where the service records clicks):
// the PostgreSQL driver is part of the runtime, so nothing has to be bundled for it.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedPostgres } from "../support/postgres.ts";

// --bytecode compiles to CommonJS, which has no top-level await: hence main().
const MAIN = `
import { SQL } from "bun";
async function main() {
  const url = process.argv[2];
  const sql = new SQL(url);
  const [row] = await sql\`SELECT current_database() AS db, \${41}::INT + 1 AS answer, 2::BIGINT AS big\`;
  await sql.close();
  const worker = new Worker(new URL("./worker.ts", import.meta.url).href);
  const fromWorker = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(url);
  });
  worker.terminate();
  console.log(JSON.stringify({ main: row, worker: fromWorker }));
}
main().catch((e) => { console.error(e); process.exit(1); });
`;
const WORKER = `
import { SQL } from "bun";
self.onmessage = async (e) => {
  const sql = new SQL(e.data);
  const [row] = await sql\`SELECT count(*) AS n FROM pg_stat_activity WHERE pid = pg_backend_pid()\`;
  await sql.close();
  postMessage(row);
};
`;
// As scripts/lib/compile.ts compiles the service (not imported: that module needs the UI built).
const FLAGS = ["--compile", "--minify", "--sourcemap", "--bytecode", "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "shortener-pg-compiled-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("new SQL(postgres URL) works in a compiled executable, in the main thread and a Worker", async () => {
  const url = await (await sharedPostgres()).createDatabase();
  writeFileSync(join(dir, "main.ts"), MAIN);
  writeFileSync(join(dir, "worker.ts"), WORKER);
  const exe = join(dir, "pg-probe");
  const build = Bun.spawnSync([process.execPath, "build", ...FLAGS, "main.ts", "worker.ts", "--outfile", exe], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  expect(build.stderr.toString()).not.toContain("error");
  expect(build.exitCode).toBe(0);
  // Run from another folder, with nothing in the environment but PATH.
  const run = Bun.spawnSync([exe, url], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
  expect(JSON.parse(run.stdout.toString())).toEqual({
    main: { db: new URL(url).pathname.slice(1), answer: 42, big: "2" },
    worker: { n: "1" },
  });
}, 60_000);
