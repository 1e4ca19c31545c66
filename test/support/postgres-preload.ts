// Preloaded for every test file (bunfig.toml). bun test fires no process "exit" event, so the
// shared PostgreSQL cluster (postgres.ts) is stopped here, after the last file, if a test started it.

import { afterAll } from "bun:test";
import { stopSharedPostgres } from "./postgres.ts";

afterAll(stopSharedPostgres);
