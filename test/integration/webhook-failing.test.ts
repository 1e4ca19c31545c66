// A webhook whose deliveries fail says so (#34, "Nothing fails silently"; docs/webhooks.md: Webhooks,
// "States"): the API lists it as failing with its last attempt's reason, the service's log says so
// once (not at every attempt) naming the receiver's host and never its path or query, and one the
// receiver turned off with 410 says why. Receivers on 127.0.0.1, the service run with
// --webhook-allow-private. Runs on SQLite and on PostgreSQL (SHORTENER_TEST_ENGINE=postgres).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { eventually } from "../support/eventually.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

let server: RunningServer;
let key: string;
let failing: Receiver;
let gone: Receiver;

beforeAll(async () => {
  server = await startServer({ args: ["--webhook-allow-private"] });
  key = makeKey(server.dbPath, "admin");
  // The path and query stand for a receiver's credential (Slack's, n8n's): the log must not carry them.
  failing = startReceiver("/services/T0001/s3cret-path?token=s3cret-query", "127.0.0.1");
  failing.answer(() => new Response("down", { status: 500 }));
  gone = startReceiver("/gone", "127.0.0.1");
  gone.answer(() => new Response(null, { status: 410 }));
}, 30_000);
afterAll(async () => {
  failing?.stop();
  gone?.stop();
  await server?.dispose();
});

const webhookOf = async (id: number) => (await api(server.url, key, "GET", `/api/webhooks/${id}`)).body.data;
const said = (text: string) => server.output().split("\n").filter((line) => line.includes(text));

test("a receiver answering 500: failing with its reason in the API, and one log line with the host only, however often it is tried", async () => {
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: failing.url, events: ["link.created"] });
  expect(made.status).toBe(201);
  const id: number = made.body.data.id;
  expect(made.body.data).toMatchObject({ status: "waiting", lastDelivery: null, disabledCause: null });
  await madeLink(server.url, key, "fails-1");

  const hook = await eventually(() => webhookOf(id), (w) => w.status === "failing", 20_000);
  expect(hook).toMatchObject({ enabled: true, status: "failing", disabledCause: null, lastDelivery: { state: "pending", responseCode: 500, error: "answered 500" } });
  const listed = (await api(server.url, key, "GET", "/api/webhooks")).body.data.webhooks.find((w: { id: number }) => w.id === id);
  expect(listed).toMatchObject({ status: "failing", lastDelivery: { error: "answered 500" } });

  // Tried again (about 10 s later): still one line.
  await eventually(async () => (await api(server.url, key, "GET", `/api/webhooks/${id}/deliveries`)).body.data.deliveries[0], (d) => d.attempts >= 2, 30_000, 500);
  expect(failing.received.length).toBeGreaterThanOrEqual(2);
  const lines = said(`webhook ${id} is failing`);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("answered 500");
  expect(lines[0]).toContain(`host=127.0.0.1:${new URL(failing.url).port}`);
  expect(server.output()).not.toContain("s3cret");
  expect(server.output()).not.toContain("T0001");
}, 60_000);

test("a receiver answering 410: disabled at once, and the API and the log say why", async () => {
  const made = await api(server.url, key, "POST", "/api/webhooks", { url: gone.url, events: ["link.created"] });
  const id: number = made.body.data.id;
  await madeLink(server.url, key, "gone-1");
  const hook = await eventually(() => webhookOf(id), (w) => w.enabled === false, 20_000);
  expect(hook).toMatchObject({ status: "disabled", disabledCause: "gone", disabledReason: "the receiver answered 410 Gone", lastDelivery: { state: "failed", responseCode: 410 } });
  const lines = await eventually(async () => said(`webhook ${id} turned off`), (l) => l.length > 0, 10_000);
  expect(lines[0]).toContain("the receiver answered 410 Gone");
  expect(lines[0]).toContain(`shortener webhook enable ${id}`);
}, 60_000);
