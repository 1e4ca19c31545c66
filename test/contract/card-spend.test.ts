// A person's click of a limited link with a card is admitted twice (src/http/redirect.ts spendNow:
// the first admission leaves the click unspent, for a preview agent's sake). A password PATCHed
// between the two admissions must still gate it: the redirect handler over each engine's real link
// store, the PATCH committed exactly there. The recorder is a list (nothing here is about recording).

import { expect, test } from "bun:test";
import { createClickOptOuts, NO_OPT_OUTS } from "../../src/visits/opt-outs.ts";
import { handleRedirect, type RedirectDeps } from "../../src/http/redirect.ts";
import { RequestClick } from "../../src/http/click.ts";
import { createPasswordGuard } from "../../src/http/link-password.ts";
import { parseTrustedProxies } from "../../src/visits/client-ip.ts";
import type { LinkStore } from "../../src/links/store.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

forEachEngine("a carded limited link's second admission", (db) => {
  test("a password set between the two admissions gates the click: the password page, never the destination", async () => {
    const store = db().storage.links;
    await store.create({ url: "https://dest.example/secret-place", alias: "race", maxClicks: 5, cardTitle: "A card" }, NOW - 1000);
    const passwordHash = await Bun.password.hash("open sesame");
    let admissions = 0;
    // The real store; its second admission of "race" comes after a committed PATCH.
    const links: LinkStore = {
      ...store,
      admit: async (id, click, now, unlocked) => {
        if (++admissions === 2) await store.update("race", { passwordHash });
        return store.admit(id, click, now, unlocked);
      },
    };
    const recorded: unknown[] = [];
    const deps: RedirectDeps = {
      links,
      recorder: { record: (v) => void recorded.push(v) },
      countOrphan: () => {},
      trusted: parseTrustedProxies(""),
      now: () => NOW,
      log: { error: () => {} },
      blocklist: () => ({ matches: () => false, patterns: 0 }),
      // The link has no rules: nothing reads the facts.
      clickFacts: { ready: () => undefined, facts: () => ({}) } as unknown as RedirectDeps["clickFacts"],
      passwords: createPasswordGuard(),
      notFound: () => new Response("not found", { status: 404 }),
      config: { baseUrl: null },
      optOuts: createClickOptOuts(NO_OPT_OUTS),
    };
    const request = new Request("http://s.example/race", { headers: { "user-agent": CHROME } });
    const res = await handleRedirect(new RequestClick(request, "race", null, NOW), deps);
    expect(admissions).toBe(2);
    expect(res.headers.get("location")).toBeNull();
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("secret-place");
    expect(recorded).toEqual([]);
  });
});
