// `shortener webhook add|list|remove|enable` (docs/webhooks.md: Webhooks): a webhook added from the command
// line while the service runs is heard by it (its delivery thread reads the webhooks each tick) and
// delivered to a real receiver, signed with the secret the command printed once; usage errors exit
// 2, refusals 1 (a private receiver the service would not reach: 2, webhook-refusal.test.ts), and
// the secret is printed nowhere else.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { cli } from "../support/admin.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { eventually } from "../support/eventually.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

let server: RunningServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ args: ["--webhook-allow-private"] });
  receiver = startReceiver();
});
afterAll(async () => {
  receiver.stop();
  await server.dispose();
});

test("a webhook added from the command line is delivered by the running service, signed with the printed secret", async () => {
  const added = cli(["webhook", "add", receiver.url, "--events", "link.created", "--tag", "cli", "--db", server.dbPath, "--webhook-allow-private"]);
  expect(added.code).toBe(0);
  const secret = added.out.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  expect(added.err).not.toContain(secret);
  receiver.setSecret(secret);
  // Until the service has read the new webhook (within 10 s while no delivery thread runs:
  // docs/webhooks.md), a link made now may not be announced: links are made until one is, and
  // only the tagged ones may be. Two a second at most, under the create rate limit (60 a minute).
  let n = 0;
  const got = await eventually(
    async () => {
      expect((await createLink(server.url, { url: `https://example.com/cli-${n}`, custom_url: `cli-tagged-${n}`, tags: "cli" })).status).toBe(201);
      expect((await createLink(server.url, { url: `https://example.com/untagged-${n}`, custom_url: `cli-plain-${n++}` })).status).toBe(201);
      return receiver.ofType("link.created");
    },
    (r) => r.length > 0,
    25_000,
    1_000,
  );
  expect(got[0]!.verified).toBe("ok");
  expect(got.every((r) => r.body.data.link.tags.includes("cli"))).toBe(true);
  expect(server.output()).not.toContain(secret);

  const listed = cli(["webhook", "list", "--db", server.dbPath]);
  expect(listed.code).toBe(0);
  expect(listed.out).toContain(receiver.url);
  expect(listed.out).toContain("tag cli");
  expect(listed.out).not.toContain(secret);
  const id = listed.out.split("\n")[1]!.split(/\s+/)[0]!;
  expect(cli(["webhook", "enable", id, "--db", server.dbPath]).code).toBe(0);
  expect(cli(["webhook", "remove", id, "--db", server.dbPath]).code).toBe(0);
  expect(cli(["webhook", "remove", id, "--db", server.dbPath]).code).toBe(1);
}, 60_000);

test("usage errors exit 2 and refusals 1, with a line that says why", () => {
  const bad = (args: string[]) => cli(["webhook", ...args, "--db", server.dbPath]);
  expect(bad(["add", "https://hooks.example.com/x"]).code).toBe(2); // no --events
  expect(bad(["add", "https://hooks.example.com/x", "--events", "link.exploded"]).err).toContain("--events must be one or more of");
  expect(bad(["list", "extra"]).code).toBe(2);
  expect(bad(["remove", "abc"]).code).toBe(2);
  expect(bad(["frobnicate"]).code).toBe(2);
  expect(cli(["webhook", "list", "--events", "link.created", "--db", server.dbPath]).code).toBe(2);
  // (A private receiver is judged by what the service allows: webhook-refusal.test.ts. This service
  // allows it, and a webhook added here would be sent to.)
  expect(bad(["add", "ftp://hooks.example.com/x", "--events", "link.created"]).code).toBe(1);
  // --link names a link that exists (refused like any other problem with what the database holds).
  const noLink = bad(["add", receiver.url, "--events", "link.created", "--link", "no-such-link"]);
  expect([noLink.code, noLink.err.trim()]).toEqual([1, "shortener: no link with the id no-such-link"]);
  expect(cli(["webhook", "list", "--db", server.dbPath]).out.trim().split("\n")).toHaveLength(1); // the header: none added
});

test("--link: the webhook hears that link, and the list names it", async () => {
  expect((await createLink(server.url, { url: "https://example.com/cli-link", custom_url: "cli-link" })).status).toBe(201);
  const added = cli(["webhook", "add", `${receiver.url}/linked`, "--events", "link.updated", "--link", "cli-link", "--db", server.dbPath]);
  expect(added.code).toBe(0);
  const listed = cli(["webhook", "list", "--db", server.dbPath]);
  const row = listed.out.split("\n").find((line) => line.includes(`${receiver.url}/linked`))!;
  expect(row).toContain("link cli-link");
  expect(cli(["webhook", "remove", row.split(/\s+/)[0]!, "--db", server.dbPath]).code).toBe(0);
}, 30_000);
