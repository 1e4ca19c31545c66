// Everything the opening functions (src/db/open-storage.ts, open-recorder.ts) take from the
// PostgreSQL adapters, in one module they import when a --db names PostgreSQL: a SQLite service
// never evaluates these modules, nor holds what they make (docs/performance.md: At rest).

export { openPostgresStorage } from "./storage.ts";
export { openPostgresRecorder } from "./recorder.ts";
export { postgresLinks } from "./links.ts";
export { postgresUsers } from "./users.ts";
export { postgresKeys } from "./keys.ts";
export { postgresImports } from "./imports.ts";
export { postgresEvents } from "./events.ts";
export { postgresInstances } from "./instances.ts";
export { connectPostgres } from "./connect.ts";
export { migratePostgres } from "./schema.ts";
