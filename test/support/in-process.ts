// The service's HTTP application in this process: `createApp(deps).handle(new Request(…))` on a
// temp SQLite file, its parts wired by the same function as the service's (src/app-deps.ts), its
// recorder thread started for real. No port, no child process: for tables of API scenarios
// (docs/architecture.md: Tests). The webhooks' delivery thread is not started: a change's events
// wait in the outbox, as they do while a delivery thread is away.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { appDeps } from "../../src/app-deps.ts";
import { parseArgs } from "../../src/config.ts";
import { openStorage } from "../../src/db/open-storage.ts";
import type { Storage } from "../../src/db/storage.ts";
import { createLiveHub } from "../../src/events/live-hub.ts";
import { currentServiceLeave } from "../../src/events/webhook-leave.ts";
import { createImportJobs } from "../../src/threads/import/client.ts";
import { openBlocklistFile } from "../../src/links/blocklist-file.ts";
import { EVERY_LINK } from "../../src/links/store.ts";
import type { Fields, Logger } from "../../src/log.ts";
import { startClickRecorder } from "../../src/threads/recorder/client.ts";
import { contractProblem } from "./contract.ts";

export type Answer = { status: number; headers: Headers; body: any; contract: string | null };

export type InProcess = {
  storage: Storage;
  /** every log line so far, as `msg {fields as JSON}` */
  logged: string[];
  /**
   * One request to the app; `key` null sends no Authorization header; a non-string body is sent as
   * JSON. `contract`: how the answer breaks the OpenAPI document's table, or null (test/support/contract.ts).
   */
  call(key: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** The app's own answer, unread: for a stream (the live view) or a page. */
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
};

/** The app over a new SQLite file in a temp folder; `args`: flags as the service takes them. */
export async function inProcessApp(args: string[] = []): Promise<InProcess> {
  const dir = mkdtempSync(join(tmpdir(), "shortener-inproc-"));
  const file = join(dir, "shortener.db");
  const { config } = parseArgs(["--db", file, "--port", "8080", "--host", "127.0.0.1", ...args], {});
  const logged: string[] = [];
  const log: Logger = {
    info: (msg: string, fields?: Fields) => void logged.push(`${msg} ${JSON.stringify(fields ?? {})}`),
    error: (msg: string, fields?: Fields) => void logged.push(`${msg} ${JSON.stringify(fields ?? {})}`),
  };
  let hurry = () => {};
  const storage = await openStorage(file, { busyTimeoutMs: 5_000, password: null, onWriteBusy: () => hurry() });
  const blocklist = await openBlocklistFile(config.blocklist, storage.links, log);
  const recorder = await startClickRecorder({ database: file, databasePassword: null, geoipDb: null, trustProxy: config.trustProxy, noCountFrom: config.optOuts.noCountFrom, logFormat: config.logFormat });
  hurry = () => recorder.hurry();
  const live = createLiveHub((watch) => recorder.watch(watch.ids, watch.all));
  storage.links.onChange((id) => live.changed(id === EVERY_LINK ? null : id));
  const imports = createImportJobs({ db: file, dbPassword: null, destinations: { baseUrl: config.baseUrl, allowLocal: config.allowLoopbackDestinations, blocklist: config.blocklist, allowSchemes: config.allowSchemes }, env: {}, allowPrivate: false, log });
  const webhooks = { changed: async () => {}, poke: () => {}, leave: () => currentServiceLeave(storage.instances, config.webhookAllowPrivate, null) };
  const deps = appDeps(config, log, { credentialHash: null, oidcSecret: null }, { storage, recorder, blocklist, imports, live, webhooks });
  await deps.directory.reload();
  const app = createApp(deps);
  return {
    storage,
    logged,
    async call(key, method, path, body, headers = {}) {
      const h: Record<string, string> = { host: "localhost:8080", ...headers };
      if (key !== null) h.authorization = `Bearer ${key}`;
      let payload: string | undefined;
      if (typeof body === "string") payload = body;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        h["content-type"] ??= "application/json";
      }
      const url = `http://localhost:8080${path}`;
      const response = await app.handle(new Request(url, { method, headers: h, body: payload }));
      const contract = await contractProblem(method, new URL(url), response.clone(), new Map());
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON (an export's CSV): the text itself
      }
      return { status: response.status, headers: response.headers, body: parsed, contract };
    },
    handle: (request) => app.handle(request),
    async close() {
      live.closeAll();
      await imports.stop();
      await recorder.close();
      blocklist.stop();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
