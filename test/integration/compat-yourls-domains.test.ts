// The YOURLS API (docs/yourls-api.md: expand) on an instance with several domains (#37): a full
// short URL's host picks the link's domain, a bare keyword is the default domain's, and every short
// URL answered is on its link's own domain (src/http/link-json.ts linkPlace). Both engines.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { onHost, serverWithDomains } from "../support/domains.ts";
import type { RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
beforeAll(async () => {
  server = await serverWithDomains(
    [{ name: "a.example", isDefault: true }, { name: "b.example", https: false }],
    [
      { url: "https://one.example.org/", alias: "same" },
      { url: "https://two.example.org/", alias: "same", domain: "b.example" },
    ],
  );
}, 60_000);
afterAll(() => server?.dispose());

async function expand(shorturl: string): Promise<any> {
  const res = await onHost(server, "a.example", `/yourls-api.php?${new URLSearchParams({ action: "expand", shorturl, format: "json" })}`);
  return res.json();
}

test("the same keyword on two domains: the short URL's host says which", async () => {
  expect(await expand("http://b.example/same")).toMatchObject({ longurl: "https://two.example.org/", shorturl: "http://b.example/same" });
  // The default domain's short URLs are on the request's own base, as in our API (plain http here).
  expect(await expand("https://a.example/same")).toMatchObject({ longurl: "https://one.example.org/", shorturl: "http://a.example/same" });
  expect(await expand("same")).toMatchObject({ longurl: "https://one.example.org/" });
  expect(await expand("https://c.example/nothing")).toMatchObject({ errorCode: "404", message: "Error: short URL not found" });
});
