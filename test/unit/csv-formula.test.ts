// CSV injection (issue #21): a cell a spreadsheet would run as a formula is exported with a ' before
// it, and import takes exactly that ' off again, so an export imports back unchanged.

import { expect, test } from "bun:test";
import fc from "fast-check";
import { csvRecord, escapeFormula, parseCsv, unescapeFormula } from "../../src/util/csv.ts";

const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r"];

test("each of = + - @ tab CR at the start is prefixed with ' on export and the ' stripped on import", () => {
  for (const c of FORMULA_STARTS) {
    const cell = `${c}x`;
    expect(escapeFormula(cell)).toBe(`'${cell}`);
    expect(unescapeFormula(`'${cell}`)).toBe(cell);
    // Through the CSV writer and reader too (a CR needs double quotes as well).
    expect(csvRecord([cell])).toBe(c === "\r" ? `"'${cell}"\r\n` : `'${cell}\r\n`);
    expect(parseCsv(csvRecord([cell, "a"]))).toEqual([[cell, "a"]]);
  }
  expect(escapeFormula("-")).toBe("'-");
  expect(csvRecord(["-alias", "-t1,-t2", "https://example.com/?a==1", -1])).toBe(`'-alias,"'-t1,-t2",https://example.com/?a==1,'-1\r\n`);
});

test("cells that do not start a formula are written as they are; a ' before anything else is kept on import", () => {
  for (const cell of ["hello", "a-b", "https://example.com/?a==1", "", " =x", "'hello", "'", "''", "'x=1"]) {
    expect(escapeFormula(cell)).toBe(cell);
    expect(unescapeFormula(cell)).toBe(cell);
    expect(parseCsv(csvRecord([cell, "z"]))).toEqual([[cell, "z"]]);
  }
});

test("a cell that already starts with ' and a formula character gets one more ', and comes back as it was", () => {
  expect(escapeFormula("'-x")).toBe("''-x");
  expect(unescapeFormula("''-x")).toBe("'-x");
  expect(unescapeFormula("'-x")).toBe("-x");
});

test("property: strip(escape(x)) === x for every string, and escape(x) never starts with a formula character", () => {
  // Strings made mostly of the characters that matter, and arbitrary Unicode.
  const loaded = fc.string({ unit: fc.constantFrom("'", "=", "+", "-", "@", "\t", "\r", "a", ",", '"', "\n", " ") });
  fc.assert(
    fc.property(fc.oneof(loaded, fc.string({ unit: "grapheme" }), fc.string()), (x) => {
      const written = escapeFormula(x);
      expect(unescapeFormula(written)).toBe(x);
      expect(FORMULA_STARTS.includes(written.charAt(0))).toBe(false);
      expect(parseCsv(csvRecord([x, "z"]))).toEqual([[x, "z"]]);
    }),
    { numRuns: 5000 },
  );
});
