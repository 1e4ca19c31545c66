// checkPaging (src/links/list.ts): the list port refuses, before any SQL is written or a read goes to
// the reader thread, a query no surface should hand it: an order no SQL is written for, and a tags
// filter of more names than MAX_FILTER_TAGS (each is a bound parameter).

import { expect, test } from "bun:test";
import { checkPaging, MAX_FILTER_TAGS, type ListQuery } from "../../src/links/list.ts";

type Paging = Parameters<typeof checkPaging>[0];
const paging = (o: Partial<Paging>): Paging => ({ sort: "createdAt", cursor: null, offset: 0, tags: null, excludeTags: null, ...o });
const names = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

test("an unknown order is refused, at an offset as after a cursor", () => {
  const unknown = "color" as ListQuery["sort"];
  expect(() => checkPaging(paging({ sort: unknown }))).toThrow("no list order is called color");
  expect(() => checkPaging(paging({ sort: unknown, offset: undefined }))).toThrow("no list order is called color");
  expect(checkPaging(paging({ sort: "title" }))).toBe(true);
  expect(checkPaging(paging({ sort: "totalClicks", offset: undefined }))).toBe(false);
});

test(`a tags or excludeTags filter of more than ${MAX_FILTER_TAGS} names is refused`, () => {
  expect(checkPaging(paging({ tags: { names: names(MAX_FILTER_TAGS), mode: "any" }, excludeTags: { names: names(MAX_FILTER_TAGS), mode: "all" } }))).toBe(true);
  expect(() => checkPaging(paging({ tags: { names: names(MAX_FILTER_TAGS + 1), mode: "any" } }))).toThrow(RangeError);
  expect(() => checkPaging(paging({ excludeTags: { names: names(MAX_FILTER_TAGS + 1), mode: "all" } }))).toThrow(RangeError);
});
