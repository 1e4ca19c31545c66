// The links port's walk of stored password hashes (LinkRepository.passwordHashes, both engines) and
// the start-up report over it (src/links/locked-links.ts): every protected link is walked once, in
// pages, and exactly those whose hash is outside the bounds are named as locked.

import { expect, test } from "bun:test";
import { lockedLinkIds, reportLockedLinks } from "../../src/links/locked-links.ts";
import { PASSWORD_HASHES_PAGE } from "../../src/db/shared/link-rows.ts";
import { forEachEngine, NOW } from "../support/contract-suite.ts";
import { forged } from "../support/argon2.ts";

const WITHIN = forged({ m: 65536, t: 2, p: 1 });
const BOMB = forged({ m: 2_097_152, t: 2, p: 1 });
const SLOW = forged({ m: 65536, t: 999, p: 1 });

forEachEngine("links: stored password hashes", (db) => {
  test("every protected link's id and hash, oldest first; links without a password are not walked", async () => {
    const { links } = db().storage;
    await links.create({ url: "https://example.com/", alias: "plain" }, NOW);
    await links.create({ url: "https://example.com/", alias: "bomb", passwordHash: BOMB }, NOW);
    await links.create({ url: "https://example.com/", alias: "fine", passwordHash: WITHIN }, NOW);
    await links.create({ url: "https://example.com/", alias: "slow", passwordHash: SLOW }, NOW);
    const walked = [];
    for await (const h of links.passwordHashes()) walked.push(h);
    expect(walked).toEqual([
      { id: "bomb", passwordHash: BOMB },
      { id: "fine", passwordHash: WITHIN },
      { id: "slow", passwordHash: SLOW },
    ]);
    expect(await lockedLinkIds(links)).toEqual(["bomb", "slow"]);
  }, 30_000); // the first test on PostgreSQL may wait for the shared cluster to start

  test("a new password, or none, takes a link off the list; the report names what is left, once", async () => {
    const { links } = db().storage;
    for (const id of ["locked-a", "locked-b", "locked-c"]) await links.create({ url: "https://example.com/", alias: id, passwordHash: BOMB }, NOW);
    await links.update("locked-a", { passwordHash: WITHIN });
    await links.update("locked-b", { passwordHash: null });
    expect(await lockedLinkIds(links)).toEqual(["locked-c"]);
    const lines: string[] = [];
    await reportLockedLinks(links, { error: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("locked-c");
    expect(lines[0]).toContain("new password");
    expect(lines[0]).not.toContain("locked-a");
    await links.update("locked-c", { passwordHash: WITHIN });
    lines.length = 0;
    await reportLockedLinks(links, { error: (line) => lines.push(line) });
    expect(lines).toEqual([]);
  });

  test("more protected links than a page: the walk goes on past it", async () => {
    const { links } = db().storage;
    const n = PASSWORD_HASHES_PAGE + 1;
    for (let i = 0; i < n; i++) await links.create({ url: "https://example.com/", alias: `p${i}`, passwordHash: i === 0 || i === n - 1 ? BOMB : WITHIN }, NOW);
    let walked = 0;
    for await (const _ of links.passwordHashes()) walked++;
    expect(walked).toBe(n);
    expect(await lockedLinkIds(links)).toEqual(["p0", `p${n - 1}`]);
  }, 60_000);
});
