// One status per error code (src/http/problems.ts), the one docs/api.md's Errors table gives it,
// and an operation's problem in the API's JSON error shape.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES } from "../../src/errors.ts";
import { problemResponse, STATUS_OF } from "../../src/http/problems.ts";
import { refused, refusedFields } from "../../src/ops/outcome.ts";

test("every code's status is one the Errors table of docs/api.md gives it", () => {
  const docs = readFileSync(join(import.meta.dir, "../../docs/api.md"), "utf8");
  const documented = new Map<string, number[]>();
  for (const [, statuses, codes] of docs.matchAll(/^\| ([\d, ]+) \| ([^|]+) \|/gm)) {
    for (const [, code] of codes!.matchAll(/`([a-z_]+)`/g)) documented.set(code!, statuses!.split(",").map((s) => Number(s.trim())));
  }
  const wrong = ERROR_CODES.filter((code) => documented.has(code) && !documented.get(code)!.includes(STATUS_OF[code])).map((code) => `${code}: ${STATUS_OF[code]} not in ${documented.get(code)}`);
  expect(documented.size).toBeGreaterThan(30);
  expect(wrong).toEqual([]);
});

test("a problem answers with its code's status and the API's error fields", async () => {
  const one = problemResponse(refused("alias_taken", "custom_url \"x\" is already taken", "custom_url").problem);
  expect(one.status).toBe(409);
  expect(await one.json()).toEqual({ success: false, error: 'custom_url "x" is already taken', code: "alias_taken", field: "custom_url" });
  const many = problemResponse(refusedFields([{ code: "url_invalid", field: "url", error: "no" }, { code: "tags_invalid", field: "tags", error: "nor" }]).problem);
  expect(many.status).toBe(400);
  expect((await many.json()).errors).toHaveLength(2);
  const later = problemResponse({ code: "rate_limited", message: "slow down", retryAfterSeconds: 7 });
  expect(later.headers.get("retry-after")).toBe("7");
});
