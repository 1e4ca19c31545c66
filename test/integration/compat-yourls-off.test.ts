// --compat without yourls (docs/yourls-api.md: The YOURLS API): /yourls-api.php is then the
// ordinary 404 page, as any unknown path, with or without a key, GET or POST.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeKey } from "../support/admin.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

for (const compat of ["off", "kutt"]) {
  describe(`--compat ${compat}`, () => {
    let server: RunningServer;
    let key: string;
    beforeAll(async () => {
      server = await startServer({ args: ["--compat", compat] });
      key = makeKey(server.dbPath, "k", "create");
    }, 60_000);
    afterAll(() => server.dispose());

    test("/yourls-api.php answers as an unknown page does", async () => {
      const unknown = await fetch(`${server.url}/no-such-page.php`);
      const unknownBody = await unknown.text();
      for (const init of [{}, { method: "POST", body: new URLSearchParams({ action: "shorturl", url: "https://example.com/", signature: key }) }]) {
        const res = await fetch(`${server.url}/yourls-api.php?action=version&signature=${key}&format=json`, init);
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
        expect(await res.text()).toBe(unknownBody);
      }
    });
  });
}
