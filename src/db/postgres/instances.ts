// The instances on a PostgreSQL database (the InstanceRegistry of src/instances/registry.ts): every
// instance sharing the database has its row, and the rule over them is the domain's.

import { FORGET_AFTER_MS, type InstanceRegistry } from "../../instances/registry.ts";
import { ALL_SQL, FORGET_SQL, SEEN_SQL, STARTED_SQL, STOPPED_SQL, toInstance } from "../shared/instance-rows.ts";
import { numbered, type Pg } from "./connect.ts";

const STARTED = numbered(STARTED_SQL);
const FORGET = numbered(FORGET_SQL);
const SEEN = numbered(SEEN_SQL);
const STOPPED = numbered(STOPPED_SQL);

export function postgresInstances(sql: Pg): InstanceRegistry {
  return {
    async started(name, at, settings) {
      await sql.begin(async (tx) => {
        await tx.unsafe(FORGET, [at - FORGET_AFTER_MS]);
        await tx.unsafe(STARTED, [name, at, settings.webhookAllowPrivate ? 1 : 0]);
      });
    },
    seen: async (name, at) => void (await sql.unsafe(SEEN, [name, at])),
    stopped: async (name, at) => void (await sql.unsafe(STOPPED, [name, at])),
    all: async () => (await sql.unsafe(ALL_SQL)).map(toInstance),
  };
}
