// The bounds a link's password hash must keep (src/links/password-hash.ts), through the one parser
// every surface uses (parseBehaviour: a create's form, a JSON create, PATCH, an import row): a table
// of PHC strings accepted and refused, and every accepted edge really verified by Bun.

import { describe, expect, test } from "bun:test";
import { PASSWORD_HASH_RULE, passwordHashWithinBounds } from "../../src/links/password-hash.ts";
import { CAMEL_NAMES, parseBehaviour, PLAIN, SNAKE_NAMES } from "../../src/links/behaviour.ts";
import { compileRoute } from "../../src/links/router.ts";
import type { FieldProblem } from "../../src/errors.ts";
import { argon2id, forged } from "../support/argon2.ts";

const noUrl = () => ({ ok: false as const, code: "url_invalid" as const, error: "unused" });

/** What the import's parser makes of a password_hash cell: the hash kept, or the problem. */
function parsed(hash: unknown): { kept: unknown } | FieldProblem {
  const problems: FieldProblem[] = [];
  const out = parseBehaviour({ password_hash: hash }, SNAKE_NAMES, noUrl, problems);
  return problems[0] ?? { kept: out.passwordHash };
}

const SALT = forged({ m: 65536, t: 2, p: 1 }).split("$")[4]!;
const HASH = forged({ m: 65536, t: 2, p: 1 }).split("$")[5]!;

const REFUSED: [string, string][] = [
  ["2 GiB of memory (the red team's)", forged({ m: 2_097_152, t: 2, p: 1 })],
  ["9.5 GiB, the old pattern's most", forged({ m: 9_999_999, t: 2, p: 1 })],
  ["one KiB over 64 MiB", forged({ m: 65_537, t: 2, p: 1 })],
  ["t=999", forged({ m: 65536, t: 999, p: 1 })],
  ["t=5", forged({ m: 65536, t: 5, p: 1 })],
  ["p=5", forged({ m: 65536, t: 2, p: 5 })],
  ["p=255", forged({ m: 65536, t: 2, p: 255 })],
  ["less than 8 KiB a lane", forged({ m: 31, t: 1, p: 4 })],
  ["t=0", `$argon2id$v=19$m=65536,t=0,p=1$${SALT}$${HASH}`],
  ["p=0", `$argon2id$v=19$m=65536,t=2,p=0$${SALT}$${HASH}`],
  ["a leading zero", `$argon2id$v=19$m=065536,t=2,p=1$${SALT}$${HASH}`],
  ["argon2i", `$argon2i$v=19$m=65536,t=2,p=1$${SALT}$${HASH}`],
  ["argon2d", `$argon2d$v=19$m=65536,t=2,p=1$${SALT}$${HASH}`],
  ["version 16", `$argon2id$v=16$m=65536,t=2,p=1$${SALT}$${HASH}`],
  ["no version", `$argon2id$m=65536,t=2,p=1$${SALT}$${HASH}`],
  ["a keyid parameter", `$argon2id$v=19$m=65536,t=2,p=1,keyid=AAAA$${SALT}$${HASH}`],
  ["parameters in another order", `$argon2id$v=19$t=2,m=65536,p=1$${SALT}$${HASH}`],
  ["a 7-byte salt", forged({ m: 65536, t: 2, p: 1, saltBytes: 7 })],
  ["a 65-byte salt", forged({ m: 65536, t: 2, p: 1, saltBytes: 65 })],
  ["a 15-byte hash", forged({ m: 65536, t: 2, p: 1, hashBytes: 15 })],
  ["a 65-byte hash", forged({ m: 65536, t: 2, p: 1, hashBytes: 65 })],
  ["base64 padding", `$argon2id$v=19$m=65536,t=2,p=1$${SALT}=$${HASH}`],
  ["base64 of a length no encoder writes (41 characters)", `$argon2id$v=19$m=65536,t=2,p=1$${SALT}$${HASH.slice(0, 41)}`],
  ["a trailing newline", forged({ m: 65536, t: 2, p: 1 }) + "\n"],
  ["bcrypt", "$2b$10$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz0123"],
  ["no hash at all", "secret"],
  ["an endless text", `$argon2id$v=19$m=65536,t=2,p=1$${"A".repeat(10_000)}$${HASH}`],
];

describe("password_hash: refused unless within the bounds", () => {
  for (const [what, hash] of REFUSED) {
    test(what, () => {
      expect(passwordHashWithinBounds(hash)).toBe(false);
      const problem = parsed(hash) as FieldProblem;
      expect(problem).toMatchObject({ code: "password_invalid", field: "password_hash" });
      // The message states the bounds, so whoever sent it knows what would pass.
      expect(problem.error).toContain(PASSWORD_HASH_RULE);
      expect(problem.error).toContain("65536 KiB");
    });
  }

  test("not text: refused too; PATCH's camelCase name is named", () => {
    expect(parsed(65536)).toMatchObject({ code: "password_invalid", field: "password_hash" });
    const problems: FieldProblem[] = [];
    parseBehaviour({ passwordHash: forged({ m: 2_097_152, t: 2, p: 1 }) }, CAMEL_NAMES, noUrl, problems);
    expect(problems).toMatchObject([{ code: "password_invalid", field: "passwordHash" }]);
  });
});

describe("password_hash: accepted within the bounds, and each such hash verifies", () => {
  test("what this build writes (Bun.password, argon2id) is within the bounds", async () => {
    const own = await Bun.password.hash("pw", { algorithm: "argon2id" });
    expect(parsed(own)).toEqual({ kept: own });
    expect(compileRoute("https://example.com/", { ...PLAIN, passwordHash: own })!.passwordLocked).toBe(false);
  });

  const EDGES: [string, Parameters<typeof argon2id>[1]][] = [
    ["the upper bounds: 64 MiB, t=4, p=4, 64-byte salt and hash", { m: 65536, t: 4, p: 4, saltBytes: 64, hashBytes: 64 }],
    ["the lower bounds: 8 KiB, t=1, p=1, 8-byte salt, 16-byte hash", { m: 8, t: 1, p: 1, saltBytes: 8, hashBytes: 16 }],
    ["8 KiB a lane, four lanes", { m: 32, t: 1, p: 4 }],
  ];
  for (const [what, params] of EDGES) {
    test(what, async () => {
      const hash = argon2id("right", params);
      expect(parsed(hash)).toEqual({ kept: hash });
      expect(await Bun.password.verify("right", hash)).toBe(true);
      expect(await Bun.password.verify("wrong", hash)).toBe(false);
    });
  }

  test("null clears the hash, as before", () => {
    expect(parsed(null)).toEqual({ kept: null });
  });
});

describe("a stored hash outside the bounds locks its link's route", () => {
  test("decided once, when the route is compiled; a link without a password has no route to lock", () => {
    expect(compileRoute("https://example.com/", { ...PLAIN, passwordHash: forged({ m: 2_097_152, t: 2, p: 1 }) })).toMatchObject({ passwordLocked: true });
    expect(compileRoute("https://example.com/", { ...PLAIN, passwordHash: forged({ m: 65536, t: 2, p: 1 }) })).toMatchObject({ passwordLocked: false });
    expect(compileRoute("https://example.com/", { ...PLAIN, redirectType: 307 })).toMatchObject({ passwordLocked: false });
    expect(compileRoute("https://example.com/", PLAIN)).toBeNull();
  });
});
