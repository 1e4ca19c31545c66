// Seeding 1M visits through the writer takes tens of seconds, so the seeded file is kept in
// bench-results/ and copied for each run. The key is the content of every file that decides what
// seeding writes, plus the day, so a changed schema, writer or classifier (or a new day) seeds again.

import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { seed, type SeedResult } from "./seed.ts";

const INPUTS = ["src/db/sqlite/schema.ts", "src/db/sqlite/open.ts", "src/db/sqlite/visit-batches.ts", "src/db/sqlite/links.ts", "src/visits/rollup.ts", "src/visits/visit-batch.ts", "src/visits/visitor.ts", "src/visits/ua.ts", "src/visits/bots.ts", "src/links/store.ts", "scripts/bench/seed.ts", "scripts/bench/seed-cache.ts"];

export async function seededDatabase(root: string, dbPath: string, visitsPerLink: Record<string, number>): Promise<SeedResult & { cached: boolean }> {
  const hasher = new Bun.CryptoHasher("sha256");
  // The migrations are one file a step (src/db/migrations): a new step changes what seeding makes.
  const steps = readdirSync(join(root, "src/db/migrations")).sort().map((f) => `src/db/migrations/${f}`);
  for (const file of [...INPUTS, ...steps]) hasher.update(readFileSync(join(root, file)));
  hasher.update(JSON.stringify(visitsPerLink) + new Date().toISOString().slice(0, 10));
  const key = hasher.digest("hex").slice(0, 16);
  const dir = join(root, "bench-results", "seed-cache");
  const cachedDb = join(dir, `${key}.db`);
  const cachedMeta = join(dir, `${key}.json`);
  if (existsSync(cachedDb) && existsSync(cachedMeta)) {
    copyFileSync(cachedDb, dbPath);
    return { ...(JSON.parse(readFileSync(cachedMeta, "utf8")) as SeedResult), cached: true };
  }
  const result = await seed(dbPath, visitsPerLink);
  rmSync(dir, { recursive: true, force: true }); // one cached file at a time: each is ~130 MB
  mkdirSync(dir, { recursive: true });
  // seed() closed the database, so its WAL is checkpointed into the one file copied here.
  copyFileSync(dbPath, `${cachedDb}.tmp`);
  renameSync(`${cachedDb}.tmp`, cachedDb);
  await Bun.write(cachedMeta, JSON.stringify(result));
  return { ...result, cached: false };
}
