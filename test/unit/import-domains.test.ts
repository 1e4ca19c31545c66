// Where imported links land (src/imports/domains.ts, docs/importing.md: Domains) and how the plan
// checks their codes per domain: the rules, without a database or a source.
import { describe, expect, test } from "bun:test";
import { landing, parseDomainMap, shownAt, type DomainMap } from "../../src/imports/domains.ts";
import { planImport, type ConflictPolicy } from "../../src/imports/plan.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import type { SourceLink } from "../../src/imports/source.ts";
import { parseArgs } from "../../src/config.ts";

const link = (domain: string | null, code: string): SourceLink => ({
  key: `${domain ?? ""}/${code}`, domain, code, url: `https://example.com/${code}`, createdAt: 0, tags: [], expiresAt: null, validFrom: null, maxClicks: null, title: null, disabledBecause: null, dropped: [], clicks: null,
});
const domain = (name: string, isDefault = false): Domain => ({ ...DEFAULT_SETTINGS, name, isDefault, createdAt: 1 });
const mapOf = (text: string): DomainMap => {
  const parsed = parseDomainMap(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.map;
};

describe("--domain-map", () => {
  test("old=new pairs, comma separated or as the dashboard's object; new may be our default by name or word", () => {
    expect([...mapOf("Old.Example=new.example, gone.example=default,x.example=")]).toEqual([["old.example", "new.example"], ["gone.example", ""], ["x.example", ""]]);
    const object = parseDomainMap({ "a.example": "b.example" });
    expect(object.ok && [...object.map]).toEqual([["a.example", "b.example"]]);
    expect(parseDomainMap(undefined)).toEqual({ ok: true, map: new Map() });
  });

  test("what is not OLD=NEW, a name that is no host, or one source domain sent two ways is refused by name", () => {
    expect(parseDomainMap("old.example")).toMatchObject({ ok: false, error: expect.stringContaining("is not OLD=NEW") });
    expect(parseDomainMap("old.example=http://x/")).toMatchObject({ ok: false, error: expect.stringContaining('"http://x/" is not a domain name') });
    expect(parseDomainMap("127.0.0.1=new.example")).toMatchObject({ ok: false, error: expect.stringContaining('"127.0.0.1" is not a domain name') });
    expect(parseDomainMap("a.example=b.example,A.example=c.example")).toMatchObject({ ok: false, error: expect.stringContaining("names a.example twice") });
    expect(parseDomainMap({ "a.example": 3 })).toMatchObject({ ok: false });
  });

  test("the flag may be given more than once: the values are joined", () => {
    const parsed = parseArgs(["import", "--from", "csv", "--domain-map", "a.example=b.example", "--domain-map=c.example=default"], {}, () => true);
    expect(parsed.commandFlags["domain-map"]).toBe("a.example=b.example,c.example=default");
  });
});

describe("where a link lands", () => {
  const links = [link(null, "a"), link("ours.example", "b"), link("OLD.example", "c"), link("new.example", "d"), link("s.test", "e"), link("not a host", "f")];

  test("the source's default on ours; a map entry; ours of the same name; the default's name (--base-url) on the default; any other is added", () => {
    const land = landing(links, mapOf("old.example=ours.example,unused.example=default"), [domain("ours.example")], "s.test");
    expect(links.map((l) => land.place(l))).toEqual([
      { domain: "", name: "s.test" }, { domain: "ours.example", name: "ours.example" }, { domain: "ours.example", name: "ours.example" },
      { domain: "new.example", name: "new.example" }, { domain: "", name: "s.test" }, { problem: expect.stringContaining('"not a host" is no host name') },
    ]);
    expect(land.added).toEqual(["new.example"]);
    expect(land.refusal).toBeNull();
    expect(land.notes).toEqual(["--domain-map unused.example: the source has no links on unused.example"]);
  });

  test("without --base-url the default row names the default; mapped onto it, a domain lands there", () => {
    const land = landing(links.slice(0, 4), mapOf("old.example=default"), [domain("home.example", true), domain("ours.example")], null);
    expect(links.slice(0, 4).map((l) => land.place(l))).toEqual([
      { domain: "", name: "home.example" }, { domain: "ours.example", name: "ours.example" }, { domain: "", name: "home.example" }, { domain: "new.example", name: "new.example" },
    ]);
  });

  test("a default without a name (no --base-url, no domain) takes no domain beside it: each such link has a problem that says what to do", () => {
    const land = landing([link(null, "a"), link("new.example", "d")], new Map(), [], null);
    expect(land.place(link(null, "a"))).toEqual({ domain: "", name: null });
    expect(land.place(link("new.example", "d"))).toEqual({ problem: expect.stringContaining("set --base-url") });
    expect(land.added).toEqual([]);
  });

  test("a map onto a domain we do not have refuses the import", () => {
    expect(landing(links, mapOf("old.example=typo.example"), [domain("ours.example")], "s.test").refusal).toContain("typo.example is not a domain here");
  });
});

describe("the plan per domain", () => {
  function plan(policy: ConflictPolicy, links: SourceLink[], map: DomainMap, taken: Record<string, "taken" | "retired"> = {}) {
    const land = landing(links, map, [domain("ours.example")], "s.test");
    let n = 0;
    return planImport({ links, policy, imported: new Map(), placeOf: land.place, taken: new Map(Object.entries(taken)), checkUrl: (url) => ({ ok: true, url }), newId: () => `new${++n}` });
  }
  const links = [link(null, "abc"), link("ours.example", "abc"), link("two.example", "abc"), link("ours.example", "mine")];

  test("the same code on two domains is two links; a code is taken only on its own domain", () => {
    const p = plan("fail", links, new Map(), { mine: "taken" });
    expect(p.conflicts).toEqual([]);
    expect(p.create.map((c) => [c.domain, c.id, c.shown])).toEqual([["", "abc", "/abc"], ["ours.example", "abc", "ours.example/abc"], ["two.example", "abc", "two.example/abc"], ["ours.example", "mine", "ours.example/mine"]]);
  });

  test("two source domains mapped onto one, or a code taken on that domain, follow the policy and name the domain", () => {
    const map = mapOf("two.example=ours.example");
    const taken = { "mine@ours.example": "taken" } as const;
    const clashes = [["ours.example/abc (two.example/abc at the source)", "duplicate"], ["ours.example/mine", "taken"]];
    expect(plan("fail", links, map, taken).conflicts.map((c) => [c.shown, c.problem])).toEqual(clashes);
    expect(plan("skip", links, map, taken).skipped.map((c) => [c.shown, c.problem])).toEqual(clashes);
    const renamed = plan("rename", links, map, taken).create.filter((c) => c.renamedBecause !== null);
    expect(renamed.map((c) => [c.link.key, c.domain, c.id, c.renamedBecause])).toEqual([["two.example/abc", "ours.example", "new1", "duplicate"], ["ours.example/mine", "ours.example", "new2", "taken"]]);
  });

  test("a link whose domain cannot land is a problem no rename mends", () => {
    const odd = [link("not a host", "x")];
    expect(plan("rename", odd, new Map()).skipped.map((s) => s.problem)).toEqual(["domain"]);
    expect(plan("fail", odd, new Map()).conflicts.map((s) => s.problem)).toEqual(["domain"]);
  });

  test("the report names a link on our default by its source key, elsewhere by domain/code here", () => {
    expect(shownAt(link(null, "a"), { domain: "", name: "s.test" })).toBe("/a");
    expect(shownAt(link("x.example", "a"), { domain: "x.example", name: "x.example" }, "new1")).toBe("x.example/new1");
    expect(shownAt(link("x.example", "a"), { domain: "", name: "s.test" })).toBe("s.test/a (x.example/a at the source)");
    expect(shownAt(link("x.example", "a"), { domain: "", name: null })).toBe("a (x.example/a at the source)");
  });
});
