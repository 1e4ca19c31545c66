// The check shlink-sdk.test.ts reads our answers with (test/support/shlink-shapes.ts): it must
// name what is missing or of the wrong kind, at any depth, and accept null only where allowed.
import { describe, expect, test } from "bun:test";
import { mismatches } from "../support/shlink-shapes.ts";

const shape = { code: "string", title: "string|null", tags: ["string"], meta: { max: "number|null" }, place: { nullable: { name: "string" } } } as const;

describe("shape check", () => {
  test("a conforming value has no mismatches; extra fields are allowed", () => {
    expect(mismatches({ code: "a", title: null, tags: ["x"], meta: { max: 3 }, place: null, extra: 1 }, shape)).toEqual([]);
    expect(mismatches({ code: "a", title: "t", tags: [], meta: { max: null }, place: { name: "n" } }, shape)).toEqual([]);
  });

  test("missing fields, wrong kinds and nulls where none is allowed are named by their path", () => {
    expect(mismatches({ title: 1, tags: ["x", 2], meta: {}, place: { name: null } }, shape)).toEqual([
      "answer.code: missing",
      "answer.title: string|null expected, got 1",
      "answer.tags[1]: string expected, got 2",
      "answer.meta.max: missing",
      "answer.place.name: string expected, got null",
    ]);
    expect(mismatches(null, shape)).toEqual(["answer: an object expected, got null"]);
    expect(mismatches({ code: "a", title: null, tags: "x", meta: { max: 1 }, place: null }, shape)).toEqual(["answer.tags: a list expected, got \"x\""]);
  });
});
