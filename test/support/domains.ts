// A service with several domains for the tests of #37: its database gets the domains (and links on
// them) while the service is stopped, through the storage's own parts, so that the service reads
// them at its start as it would an operator's `shortener domain add`. Requests name a domain by the
// Host header they send to 127.0.0.1 (the door matches it; nothing resolves those names).

import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS } from "../../src/domains/domain.ts";
import type { NewLink } from "../../src/links/store.ts";
import { startServer, type RunningServer, type StartOptions } from "./server.ts";

export type DomainSpec = { name: string; isDefault?: boolean; https?: boolean };

/** Starts a service, stops it, adds the domains and links, and starts it again on the same database. */
export async function serverWithDomains(domains: readonly DomainSpec[], links: readonly NewLink[], options: StartOptions = {}): Promise<RunningServer> {
  const first = await startServer(options);
  await first.stop();
  const storage = await openStorage(first.dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    for (const d of domains) {
      const added = await storage.domains.add({ ...DEFAULT_SETTINGS, name: d.name, isDefault: d.isDefault ?? false, https: d.https ?? true, createdAt: Date.now() });
      if (added === "taken") throw new Error(`domain ${d.name} taken`);
    }
    for (const link of links) await storage.links.create(link, Date.now());
  } finally {
    await storage.close();
  }
  const server = await startServer({ ...options, dir: first.dir });
  const dispose = server.dispose;
  // The first start's folder (and PostgreSQL database) is the second's: removed once, at the end.
  return { ...server, dispose: async () => { await dispose(); await first.dispose(); } };
}

/** A request to the service as if sent to `host` (its Host header), never following a redirect. */
export function onHost(server: RunningServer, host: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Host", host);
  return fetch(`${server.url}${path}`, { redirect: "manual", ...init, headers });
}
