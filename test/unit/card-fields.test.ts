// The preview card fields' one parser (src/links/card-fields.ts) and the iosUrl/androidUrl rule
// shortcuts (src/links/os-shortcuts.ts), without a server: bounds counted in code points, the tidy
// a title gets, text stored as written (escaping is the card page's), and the image checked by the
// destination rules with no app scheme let through.

import { describe, expect, test } from "bun:test";
import { CAMEL_CARD_NAMES, MAX_CARD_DESCRIPTION_LENGTH, MAX_CARD_TITLE_LENGTH, parseCard, SNAKE_CARD_NAMES } from "../../src/links/card-fields.ts";
import { CAMEL_SHORTCUT_NAMES, parseShortcuts, shortcutUrl, withShortcuts } from "../../src/links/os-shortcuts.ts";
import { checkWebDestination, type DestinationRules } from "../../src/links/create.ts";
import type { FieldProblem } from "../../src/errors.ts";
import type { Rule } from "../../src/links/rules.ts";

// An owner who allowed app schemes: a card image still takes none of them.
const RULES: DestinationRules = { ownHosts: ["s.example"], allowLocal: false, allowSchemes: new Set(["tg", "mailto"]), isBlocked: (url) => url.includes("blocked.example") };
const image = (raw: unknown) => checkWebDestination(raw, RULES);

function parse(record: Record<string, unknown>, names = CAMEL_CARD_NAMES) {
  const problems: FieldProblem[] = [];
  return { card: parseCard(record, names, image, problems), problems };
}

describe("parseCard", () => {
  test("absent fields are left out (a PATCH keeps them); null and empty are none", () => {
    expect(parse({})).toEqual({ card: {}, problems: [] });
    expect(parse({ cardTitle: null, cardDescription: "", cardImage: "" })).toEqual({ card: { cardTitle: null, cardDescription: null, cardImage: null }, problems: [] });
    expect(parse({ cardTitle: " \n\t " }).card).toEqual({ cardTitle: null });
  });

  test("text is tidied as a title: whitespace runs one space, controls and line separators dropped, trimmed", () => {
    // U+0085 (NEL) is a C1 control: dropped; U+2029 is whitespace to JavaScript: a space.
    expect(parse({ cardTitle: "  Spring\r\n  sale\u0007 \u2028now ", cardDescription: "a\u0085b\u2029c" }).card).toEqual({ cardTitle: "Spring sale now", cardDescription: "ab c" });
  });

  test("text is stored as written, never escaped: markup and entities are the card page's to escape", () => {
    const hostile = `"><script>alert(1)</script> &amp; 'x'`;
    expect(parse({ cardTitle: hostile, cardDescription: hostile }).card).toEqual({ cardTitle: hostile, cardDescription: hostile });
  });

  test("bounds in code points: 200 and 500 taken, one more refused as card_invalid naming the field as sent", () => {
    expect(parse({ cardTitle: "😀".repeat(MAX_CARD_TITLE_LENGTH), cardDescription: "é".repeat(MAX_CARD_DESCRIPTION_LENGTH) }).problems).toEqual([]);
    const { card, problems } = parse({ card_title: "x".repeat(201), card_description: "y".repeat(501) }, SNAKE_CARD_NAMES);
    expect(card).toEqual({});
    expect(problems.map((p) => [p.code, p.field])).toEqual([["card_invalid", "card_title"], ["card_invalid", "card_description"]]);
    expect(problems[0]!.error).toContain("200");
    // Measured after the tidy: spaces collapsed away do not count.
    expect(parse({ cardTitle: `${"x".repeat(100)}${" ".repeat(200)}${"y".repeat(99)}` }).problems).toEqual([]);
  });

  test("what is not text is refused", () => {
    expect(parse({ cardTitle: 5, cardDescription: ["a"], cardImage: {} }).problems.map((p) => p.field)).toEqual(["cardTitle", "cardDescription", "cardImage"]);
  });

  test("the image: an http(s) URL kept in its normalized form", () => {
    expect(parse({ cardImage: "HTTPS://Images.Example.com/a b".replace(" ", "%20") }).card).toEqual({ cardImage: "https://images.example.com/a%20b" });
  });

  test("the image: other schemes (an allowed app scheme included), this service, this machine, the blocklist, over 2048 refused", () => {
    const refused = ["javascript:alert(1)", "data:image/png;base64,AAAA", "ftp://f.example/a.png", "tg://resolve?domain=x", "mailto:a@b.example", "https://s.example/a.png", "http://localhost/a.png", "http://10.0.0.1.nip.example@127.0.0.1/", "https://blocked.example/a.png", `https://i.example/${"a".repeat(2048)}`];
    for (const cardImage of refused) {
      const { card, problems } = parse({ cardImage });
      expect({ cardImage, card, codes: problems.map((p) => `${p.code} ${p.field}`) }).toEqual({ cardImage, card: {}, codes: ["card_invalid cardImage"] });
    }
  });
});

const ios = (url: string): Rule => ({ conditions: [{ type: "os", value: "ios" }], url });
const android = (url: string): Rule => ({ conditions: [{ type: "os", value: "android" }], url });
const country: Rule = { conditions: [{ type: "country", value: "DE" }], url: "https://de.example/" };
// Not a shortcut: a second condition, or a split rather than one URL.
const iosInGermany: Rule = { conditions: [{ type: "os", value: "ios" }, { type: "country", value: "DE" }], url: "https://de.example/ios" };
const iosSplit: Rule = { conditions: [{ type: "os", value: "ios" }], variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] };

describe("iosUrl and androidUrl over rules", () => {
  const apply = (rules: Rule[] | null, shortcuts: Parameters<typeof withShortcuts>[1]) => {
    const problems: FieldProblem[] = [];
    return { rules: withShortcuts(rules, shortcuts, CAMEL_SHORTCUT_NAMES, problems), problems };
  };

  test("read: the URL of the first rule whose only condition is the system, else null", () => {
    expect(shortcutUrl(null, "ios")).toBeNull();
    expect(shortcutUrl([iosInGermany, iosSplit, country], "ios")).toBeNull();
    expect(shortcutUrl([country, ios("https://i.example/"), android("https://a.example/")], "ios")).toBe("https://i.example/");
    expect(shortcutUrl([country, ios("https://i.example/"), android("https://a.example/")], "android")).toBe("https://a.example/");
  });

  test("write: put first, replacing the old shortcut; the owner's other rules kept in order", () => {
    expect(apply([country, ios("https://old.example/"), iosInGermany], { ios: "https://new.example/" }).rules).toEqual([ios("https://new.example/"), country, iosInGermany]);
    expect(apply(null, { ios: "https://i.example/", android: "https://a.example/" }).rules).toEqual([ios("https://i.example/"), android("https://a.example/")]);
  });

  test("null removes only the shortcut; no rule left is null, as a link without rules stores it", () => {
    expect(apply([ios("https://i.example/"), iosSplit, country], { ios: null }).rules).toEqual([iosSplit, country]);
    expect(apply([android("https://a.example/")], { android: null }).rules).toBeNull();
  });

  test("more than 20 rules refused, naming the shortcut; the rules given back unchanged", () => {
    const twenty: Rule[] = Array.from({ length: 20 }, (_, i) => ({ conditions: [{ type: "query", key: "n", value: String(i) }], url: `https://q.example/${i}` }));
    const { rules, problems } = apply(twenty, { android: "https://a.example/" });
    expect(rules).toEqual(twenty);
    expect(problems).toMatchObject([{ code: "rules_invalid", field: "androidUrl" }]);
    // Replacing one that is there adds none: allowed at 20.
    expect(apply([...twenty.slice(1), ios("https://old.example/")], { ios: "https://new.example/" }).problems).toEqual([]);
  });

  test("parse: URLs checked by the rule checker given, the problem naming the field; null and empty remove", () => {
    const problems: FieldProblem[] = [];
    const checker = (raw: unknown) => (raw === "https://ok.example/" ? { ok: true as const, url: raw } : { ok: false as const, code: "url_scheme" as const, error: "url must be http(s)" });
    expect(parseShortcuts({ iosUrl: "https://ok.example/", androidUrl: "" }, CAMEL_SHORTCUT_NAMES, checker, problems)).toEqual({ ios: "https://ok.example/", android: null });
    expect(parseShortcuts({ androidUrl: "market://x" }, CAMEL_SHORTCUT_NAMES, checker, problems)).toEqual({});
    expect(problems).toMatchObject([{ code: "url_scheme", field: "androidUrl" }]);
  });
});
