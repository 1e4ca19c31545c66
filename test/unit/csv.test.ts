// CSV as spreadsheets and other shorteners write it (RFC 4180), both ways.

import { expect, test } from "bun:test";
import fc from "fast-check";
import { CsvError, csvRecord, parseCsv } from "../../src/util/csv.ts";

test("quoted fields with commas, quotes and line breaks; CRLF and LF; a byte order mark", () => {
  const text = '\uFEFFurl,tags\r\n"https://a.example/?x=1,2","a,b"\n"say ""hi""",\r\n"two\nlines",z';
  expect(parseCsv(text)).toEqual([
    ["url", "tags"],
    ["https://a.example/?x=1,2", "a,b"],
    ['say "hi"', ""],
    ["two\nlines", "z"],
  ]);
});

test("a trailing line break adds no record; empty fields are kept", () => {
  expect(parseCsv("a,,c\r\n")).toEqual([["a", "", "c"]]);
  expect(parseCsv("")).toEqual([]);
});

test("an unterminated quoted field is an error naming its line", () => {
  expect(() => parseCsv('a\n"b,c\nd')).toThrow(CsvError);
  expect(() => parseCsv('a\n"b,c\nd')).toThrow(/line 2/);
});

test("what csvRecord writes, parseCsv reads back unchanged", () => {
  const rows = [["plain", 'with "quote"', "comma,inside", "line\nbreak", " padded ", ""], ["https://x.example/?a=1&b=2", "7", "", "", "", "z"]];
  const text = rows.map((r) => csvRecord(r)).join("");
  expect(parseCsv(text)).toEqual(rows);
  expect(csvRecord(["a", null, 3])).toBe("a,,3\r\n");
});

test("parsing stops after maxRecords records that are not blank lines", () => {
  const text = "h\n\na\n\nb\nc\nd\n";
  expect(parseCsv(text, 3)).toEqual([["h"], [""], ["a"], [""], ["b"]]);
  expect(parseCsv(text)).toHaveLength(7);
});

test("property: any records written by csvRecord read back the same (fields with commas, quotes, line breaks, spaces)", () => {
  const field = fc.string({ unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r", " ", "é") });
  fc.assert(
    fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (records) => {
      // A record of one empty field is a blank line, which reads back as [""] too.
      const text = records.map((r) => csvRecord(r)).join("");
      expect(parseCsv(text)).toEqual(records);
    }),
    { numRuns: 2000 },
  );
});
