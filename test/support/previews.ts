// Link previews recorded as the card page records them (route PREVIEW_ROUTE), for tests that need
// them before an agent can be answered a card: a recorder over the server's own database is handed
// the clicks as the click thread packs them, so that each agent is named from its real User-Agent.

import { openRecorderStorage } from "../../src/db/open-recorder.ts";
import { createEventWants } from "../../src/events/wants.ts";
import { createRecordingPipeline } from "../../src/visits/recording.ts";
import { createClickPacker, type Click } from "../../src/visits/click.ts";
import { PREVIEW_ROUTE } from "../../src/visits/visit.ts";
import { openStored } from "./stored.ts";
import type { Engine } from "./server.ts";

/** Preview agents' User-Agents beside test/support/clicks.ts UA.slack. */
export const PREVIEW_AGENTS = {
  whatsapp: "WhatsApp/2.23.20.0 A",
  discord: "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
};

const quiet = { info() {}, error() {} };

/** Previews of the link `id` by these User-Agents, recorded and written before this resolves. */
export async function recordPreviews(server: { dbPath: string; engine: Engine }, id: string, userAgents: readonly string[]): Promise<void> {
  const stored = await openStored(server);
  let linkSeq: number;
  try {
    linkSeq = (await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = ?", id))!.seq;
  } finally {
    await stored.close();
  }
  // With the events the server's own recorder would write, were a webhook listening.
  const storage = await openRecorderStorage(server.dbPath, null, quiet, createEventWants(["link.clicks", "link.milestone", "link.gone"]));
  const pipeline = await createRecordingPipeline({ storage, trustProxy: "", geoipDb: null, log: quiet, flushIntervalMs: 60_000, maxQueued: 10_000 });
  const packer = createClickPacker();
  const ts = Date.now();
  for (const userAgent of userAgents) {
    const preview: Click = { linkSeq, linkId: id, ts, userAgent, referer: null, peer: "127.0.0.1", forwardedFor: null, forwarded: null, destination: null, route: PREVIEW_ROUTE };
    packer.add(preview);
  }
  pipeline.receive(packer.take()!.message);
  await pipeline.drain();
  const written = await pipeline.close();
  if (written.lastError !== null) throw new Error(`recording previews failed: ${written.lastError}`);
}
