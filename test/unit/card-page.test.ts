// A link's card page (src/http/card-page.ts; docs/sharing.md: Preview cards): the tags agents read,
// and every value escaped — read back here through an HTML parser (Bun's HTMLRewriter), so a value
// that broke out of its attribute or its <title> would show. HTMLRewriter gives attributes and text
// undecoded: decode() reads the five entities esc() writes.

import { describe, expect, test } from "bun:test";
import { cardPage } from "../../src/http/card-page.ts";
import type { Card } from "../../src/links/card.ts";

type Parsed = { meta: Map<string, string[]>; title: string; links: string[]; scripts: number; elements: string[] };

async function parse(html: string): Promise<Parsed> {
  const parsed: Parsed = { meta: new Map(), title: "", links: [], scripts: 0, elements: [] };
  const rewriter = new HTMLRewriter()
    .on("*", { element: (e) => void parsed.elements.push(e.tagName) })
    .on("meta", {
      element(e) {
        const key = e.getAttribute("property") ?? e.getAttribute("name");
        if (key !== null) parsed.meta.set(key, [...(parsed.meta.get(key) ?? []), decode(e.getAttribute("content") ?? "")]);
      },
    })
    .on("title", { text: (t) => void (parsed.title += t.text) })
    .on("a", { element: (e) => void parsed.links.push(decode(e.getAttribute("href") ?? "")) })
    .on("script", { element: () => void parsed.scripts++ });
  await rewriter.transform(new Response(html)).text();
  return parsed;
}

function decode(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}
const one = (p: Parsed, key: string) => {
  expect(p.meta.get(key)?.length).toBe(1);
  return p.meta.get(key)![0]!;
};

const URL_ = "https://s.example/launch";

describe("the tags agents read", () => {
  test("a card with all three: Open Graph, X's large image card, the description, noindex; the body links the short URL", async () => {
    const p = await parse(cardPage({ title: "Launch day", description: "All about it", image: "https://img.example/card.png" }, URL_));
    expect(one(p, "og:type")).toBe("website");
    expect(one(p, "og:title")).toBe("Launch day");
    expect(one(p, "og:description")).toBe("All about it");
    expect(one(p, "og:image")).toBe("https://img.example/card.png");
    expect(one(p, "og:url")).toBe(URL_);
    expect(one(p, "og:site_name")).toBe("s.example");
    expect(one(p, "twitter:card")).toBe("summary_large_image");
    expect(one(p, "twitter:title")).toBe("Launch day");
    expect(one(p, "twitter:description")).toBe("All about it");
    expect(one(p, "twitter:image")).toBe("https://img.example/card.png");
    expect(one(p, "description")).toBe("All about it");
    expect(one(p, "robots")).toBe("noindex");
    expect(decode(p.title)).toBe("Launch day");
    expect(p.links).toEqual([URL_]);
    expect(p.scripts).toBe(0);
  });

  test("without an image: a summary card and no image tags; without a description: none of its tags", async () => {
    const p = await parse(cardPage({ title: "Only a title", description: null, image: null }, URL_));
    expect(one(p, "twitter:card")).toBe("summary");
    for (const key of ["og:image", "twitter:image", "og:description", "twitter:description", "description"]) expect(p.meta.has(key)).toBe(false);
  });

  test("without a title (a protected link's card, or only an image): titled by the short URL, never empty", async () => {
    const p = await parse(cardPage({ title: null, description: null, image: "https://img.example/x.png" }, URL_));
    expect(one(p, "og:title")).toBe("s.example/launch");
    expect(one(p, "twitter:title")).toBe("s.example/launch");
    expect(decode(p.title)).toBe("s.example/launch");
  });

  test("the tags come first, in <head>, before anything else", () => {
    const html = cardPage({ title: "T", description: "D", image: null }, URL_);
    expect(html.startsWith('<!doctype html><html><head><meta charset="utf-8"><title>T</title>')).toBe(true);
    expect(html.indexOf('property="og:url"')).toBeLessThan(html.indexOf("</head>"));
  });
});

describe("every value escaped", () => {
  const hostile: [string, string][] = [
    ["quote and script", `"><script>alert(1)</script>`],
    ["an entity already", "Fish &amp; chips"],
    ["apostrophe", "Rock 'n' roll"],
    ["closing the title", "</title><script>x()</script>"],
    ["RTL marks", "\u200fשלום\u200e world \u202ereversed"],
  ];
  for (const [name, text] of hostile) {
    test(name, async () => {
      const card: Card = { title: text, description: text, image: `https://img.example/a?b=${text}` };
      const html = cardPage(card, URL_);
      const p = await parse(html);
      expect(p.scripts).toBe(0);
      expect(html).not.toContain("<script");
      expect(p.elements.filter((e) => e === "title").length).toBe(1);
      // read back as parsed, each value is exactly the text given
      for (const key of ["og:title", "twitter:title"]) expect(one(p, key)).toBe(text);
      for (const key of ["og:description", "twitter:description", "description"]) expect(one(p, key)).toBe(text);
      expect(one(p, "og:image")).toBe(`https://img.example/a?b=${text}`);
      expect(decode(p.title)).toBe(text);
    });
  }

  test("line and paragraph separators and controls: one line", async () => {
    const p = await parse(cardPage({ title: "one\u2028two\u2029three\nfour\u0000five", description: "a\r\nb", image: null }, URL_));
    expect(one(p, "og:title")).toBe("one two three four five");
    expect(one(p, "og:description")).toBe("a b");
  });

  test("a short URL whose path or host carries markup is escaped too", async () => {
    const odd = `https://s.example/a"b<c>'d&e`;
    const p = await parse(cardPage({ title: "T", description: null, image: null }, odd));
    expect(one(p, "og:url")).toBe(odd);
    expect(p.links).toEqual([odd]);
  });
});
