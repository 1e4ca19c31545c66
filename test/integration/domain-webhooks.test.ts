// Webhooks on several domains (#37, docs/webhooks.md: Webhooks, "Several domains") against the real
// service, on either engine: every link's payload names its domain beside its id (the alias), its
// shortUrl is on that domain; the clicks and milestones of the same alias on two domains come apart;
// a webhook of one link (its seq) hears that link only, not the other domain's same alias.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { UA, drained } from "../support/clicks.ts";
import { onHost, serverWithDomains } from "../support/domains.ts";
import { eventually } from "../support/eventually.ts";
import type { RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let key: string;
let every: Receiver;
let oneLink: Receiver;

async function clicks(host: string, alias: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await onHost(server, host, `/${alias}`, { headers: { "User-Agent": UA.firefoxLinux } });
    await res.arrayBuffer();
    if (res.status !== 302) throw new Error(`click on ${host}/${alias} answered ${res.status}`);
  }
}

async function hook(receiver: Receiver, body: Record<string, unknown>): Promise<void> {
  const r = await api(server.url, key, "POST", "/api/webhooks", { url: receiver.url, ...body });
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
  receiver.setSecret(r.body.data.secret);
}

beforeAll(async () => {
  server = await serverWithDomains(
    [{ name: "a.example", isDefault: true }, { name: "b.example", https: false }],
    [
      { url: "https://one.example.org/", alias: "same" },
      { url: "https://two.example.org/", alias: "same", domain: "b.example" },
    ],
    { args: ["--webhook-allow-private"] },
  );
  key = makeKey(server.dbPath, "admin");
  every = startReceiver();
  oneLink = startReceiver();
  await hook(every, { events: ["link.updated", "link.clicks", "link.milestone"] });
  // The default domain's "same" only: a link's webhook follows its seq.
  await hook(oneLink, { events: ["link.clicks"], linkId: "same" });
  await clicks("b.example", "same", 10);
  await clicks("a.example", "same", 1);
  await drained(server.url);
}, 60_000);

afterAll(async () => {
  every?.stop();
  oneLink?.stop();
  await server?.dispose();
});

describe("webhooks on several domains", () => {
  test("a link's change names its domain, and its shortUrl is on it", async () => {
    const changed = await api(server.url, key, "PATCH", "/api/links/same", { tags: ["launch"] });
    expect(changed.status).toBe(200);
    const [updated] = await eventually(async () => every.ofType("link.updated"), (r) => r.length > 0);
    expect(updated!.verified).toBe("ok");
    expect(updated!.body.data.link).toMatchObject({ id: "same", domain: "a.example", shortUrl: "https://a.example/same" });
  });

  test("clicks and milestones of the same alias on two domains: each names its own domain", async () => {
    const clicked = await eventually(async () => every.ofType("link.clicks").flatMap((r) => r.body.data.clicks), (c) => c.length >= 11);
    const byDomain = (d: string) => clicked.filter((c: { id: string; domain: string }) => c.id === "same" && c.domain === d).length;
    expect([byDomain("b.example"), byDomain("a.example")]).toEqual([10, 1]);
    const [milestone] = await eventually(async () => every.ofType("link.milestone"), (r) => r.length > 0);
    expect(milestone!.body.data).toEqual({ id: "same", domain: "b.example", milestone: 10, totalClicks: 10 });
  });

  test("a webhook of one link (--link, by its seq) hears that link only, not another domain's same alias", async () => {
    const heard = () => oneLink.ofType("link.clicks").flatMap((r) => r.body.data.clicks);
    await eventually(async () => heard(), (c) => c.length >= 1);
    // Its one click was recorded after the ten of b.example: had they matched, they came before it.
    expect(heard().map((c: { id: string; domain: string }) => [c.id, c.domain])).toEqual([["same", "a.example"]]);
  });
});
