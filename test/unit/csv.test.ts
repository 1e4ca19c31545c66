// CSV as spreadsheets and other shorteners write it (RFC 4180), both ways.

import { expect, test } from "bun:test";
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
