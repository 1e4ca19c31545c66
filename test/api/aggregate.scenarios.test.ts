// Who may read a tag's, a domain's and compared statistics (docs/statistics.md: Tags and domains,
// Comparing), through the app in this process (test/support/in-process.ts), under --stats-access
// public and key alike: a key or a session always, and then only the caller's own links.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { inProcessApp, type InProcess } from "../support/in-process.ts";

type Who = "nobody" | "alice" | "bob" | "admin" | "bad key";
type Row = { who: Who; path: string; status: number; code?: string; links?: number };

const ROWS: Row[] = [
  { who: "nobody", path: "/api/stats/tag?tag=promo", status: 401, code: "auth_required" },
  { who: "bad key", path: "/api/stats/tag?tag=promo", status: 401, code: "auth_invalid" },
  { who: "alice", path: "/api/stats/tag?tag=promo", status: 200, links: 2 },
  { who: "bob", path: "/api/stats/tag?tag=promo", status: 200, links: 1 },
  { who: "admin", path: "/api/stats/tag?tag=promo", status: 200, links: 3 },
  // A tag only another's links carry is not theirs to know of.
  { who: "bob", path: "/api/stats/tag?tag=alices", status: 404, code: "not_found" },
  { who: "alice", path: "/api/stats/tag?tag=", status: 400, code: "bad_request" },
  { who: "alice", path: "/api/stats/tag?tag=no%20tag", status: 400, code: "tags_invalid" },
  { who: "alice", path: "/api/stats/tag?tag=promo&from=2026-13-01", status: 400, code: "bad_range" },
  { who: "alice", path: "/api/stats/tag?tag=promo&bots=maybe", status: 400, code: "bad_request" },
  { who: "nobody", path: "/api/stats/domain?domain=sho.rt", status: 401, code: "auth_required" },
  { who: "alice", path: "/api/stats/domain?domain=sho.rt", status: 200, links: 2 },
  { who: "admin", path: "/api/stats/domain?domain=sho.rt", status: 200, links: 3 },
  { who: "alice", path: "/api/stats/domain?domain=nowhere.example", status: 400, code: "domain_unknown" },
  // Without a name: the domain the request is sent to, as /api/stats names a link's.
  { who: "alice", path: "/api/stats/domain", status: 200, links: 2 },
  { who: "nobody", path: "/api/stats/compare?ids=al-one,al-two", status: 401, code: "auth_required" },
  { who: "alice", path: "/api/stats/compare?ids=al-one,al-two", status: 200 },
  { who: "alice", path: "/api/stats/compare?tags=promo,alices&bots=exclude", status: 200 },
  // Another's link is not found, as everywhere in the API.
  { who: "alice", path: "/api/stats/compare?ids=al-one,bo-one", status: 404, code: "not_found" },
  { who: "admin", path: "/api/stats/compare?ids=al-one,bo-one", status: 200 },
  { who: "alice", path: "/api/stats/compare?ids=al-one", status: 400, code: "bad_request" },
  { who: "alice", path: "/api/stats/compare?ids=al-one,al-two,xxx,yyy,zzz", status: 400, code: "bad_request" },
  { who: "alice", path: "/api/stats/compare?ids=al-one,al-two&tags=promo,x", status: 400, code: "bad_request" },
];

for (const access of [[], ["--stats-access", "key"]]) {
  const args = ["--base-url", "https://sho.rt", ...access];
  describe(`--stats-access ${access[1] ?? "public"}`, () => {
    let app: InProcess;
    const keys = { nobody: null, "bad key": generateKey() } as Record<Who, string | null>;
    beforeAll(async () => {
      app = await inProcessApp(args);
      for (const [who, scope] of [["alice", "create"], ["bob", "create"], ["admin", "admin"]] as const) keys[who] = (await app.storage.keys.create(who, scope, Date.now())).key;
      const made = [
        await app.call(keys.alice, "POST", "/api/create", { url: "https://example.com/1", custom_url: "al-one", tags: ["promo", "alices"] }),
        await app.call(keys.alice, "POST", "/api/create", { url: "https://example.com/2", custom_url: "al-two", tags: ["promo"] }),
        await app.call(keys.bob, "POST", "/api/create", { url: "https://example.com/3", custom_url: "bo-one", tags: ["promo"] }),
      ];
      expect(made.map((a) => a.status)).toEqual([201, 201, 201]);
    }, 30_000);
    afterAll(async () => {
      await app.close();
    }, 30_000);

    test.each(ROWS)("$who $path: $status", async (row) => {
      const answer = await app.call(keys[row.who], "GET", row.path);
      expect(answer.contract).toBeNull();
      if (row.code !== undefined) {
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: row.status, code: row.code });
        return;
      }
      expect({ status: answer.status, body: answer.status === row.status ? null : answer.body }).toEqual({ status: row.status, body: null });
      if (row.links !== undefined) expect(answer.body.data.links).toBe(row.links);
      if (row.path.includes("compare")) expect(answer.body.data.series).toHaveLength(2);
    });
  });
}
