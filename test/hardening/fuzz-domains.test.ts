// Property: whatever an admin sends to /api/domains — bodies of any JSON shape, any path name, any
// moveLinksTo, any host to the certificate ask — the answer is never a 5xx and always JSON, and the
// service logs no bug (docs/several-domains.md: Managing domains).

import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--create-rate-limit", "0"] });
  key = makeKey(server.dbPath, "fuzzer");
  await fetch(`${server.url}/api/domains`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ name: "s.example.org" }) });
}, 60_000);
afterAll(() => server.dispose());

async function send(method: string, path: string, body?: string) {
  const res = await fetch(`${server.url}${path}`, { method, body, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, redirect: "manual" });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

const SETTING = fc.constantFrom("name", "https", "rootRedirect", "notFoundRedirect", "fallbackRedirect", "robots", "creators", "isDefault", "users", "keys");
const BODY = fc.oneof(fc.jsonValue(), fc.dictionary(SETTING, fc.oneof(fc.jsonValue(), fc.constantFrom("s.example.org", "https://example.com/", "none", true), fc.record({ users: fc.jsonValue(), keys: fc.jsonValue() }))));
const NAME = fc.oneof(fc.constantFrom("s.example.org", "S.EXAMPLE.ORG.", "x.example.net", "%zz", "%2F", "tls", ""), fc.string({ maxLength: 40 }).map(encodeURIComponent));

test("POST and PATCH bodies of any shape, any names: never a 5xx, always JSON", async () => {
  // The routes are there (the domain added above is listed): the property is about them, not a 404.
  expect(JSON.parse((await send("GET", "/api/domains")).text).domains[0].name).toBe("s.example.org");
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("POST", "PATCH", "DELETE", "TLS"), NAME, BODY, async (method, name, body) => {
      const answer =
        method === "POST" ? await send("POST", "/api/domains", JSON.stringify(body))
        : method === "PATCH" ? await send("PATCH", `/api/domains/${name}`, JSON.stringify(body))
        : method === "DELETE" ? await send("DELETE", `/api/domains/x.example.net?moveLinksTo=${name}`)
        : await send("GET", `/api/domains/tls?domain=${name}`);
      expect(answer.status).toBeLessThan(500);
      expect(answer.type).toStartWith("application/json");
    }),
    { numRuns: 300 },
  );
  expect(server.output()).not.toContain("request failed");
}, 90_000);
