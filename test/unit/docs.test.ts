// The documentation holds together (issue #34): every relative link and anchor in README.md and
// docs/ resolves, every flag of --help is documented in docs/configuration.md, and every place the
// code cites a document (docs/<file>.md, then a heading) names a heading that exists there.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { helpText } from "../../src/config.ts";

const ROOT = join(import.meta.dir, "../..");
const DOCS = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
const PAGES = ["README.md", ...DOCS];
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** Markdown without its fenced code blocks (a `#` there is a shell comment, a `](` is code). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "").replace(/ /g, "-");
}

/** The headings of a Markdown file, as written (without the #s and backticks). */
function headings(path: string): string[] {
  return [...prose(read(path)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.replace(/`/g, "").trim());
}

/** A file's anchors, a repeated heading numbered as GitHub numbers it (-1, -2, …). */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(path)) {
    const a = anchorOf(h);
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n === 0 ? a : `${a}-${n}`);
  }
  return out;
}

describe("links between the pages", () => {
  for (const page of PAGES) {
    test(`every relative link and anchor in ${page} resolves`, () => {
      const broken: string[] = [];
      for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        const [path, anchor] = target!.split("#");
        const file = path ? normalize(join(dirname(page), path)) : page;
        if (!existsSync(join(ROOT, file))) broken.push(`${target}: no file ${file}`);
        else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${file}`);
      }
      expect(broken).toEqual([]);
    });
  }

  test("the README stays a front page: at most 200 lines, with the run and test commands near its top", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    const top = readme.split("\n").slice(0, 20).join("\n");
    expect(top).toContain("./shortener --port 8080");
    expect(top).toContain("npm test");
  });
});

test("every flag --help names (the service's and the commands') is documented in docs/", () => {
  const flags = new Set([...helpText("0.0.0").matchAll(/--[a-z][a-z-]+/g)].map((m) => m[0]));
  const documented = DOCS.map(read).join("\n");
  const missing = [...flags].filter((flag) => !new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(documented));
  expect(flags.size).toBeGreaterThan(20);
  expect(missing).toEqual([]);
});

/** Files whose comments may cite documents. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(entry.name === "node_modules" ? [] : sources(path)));
    else if (/\.(ts|lua|sh|yaml|yml|service|container)$/.test(entry.name) && !entry.name.endsWith(".generated.ts")) out.push(path);
  }
  return out;
}

test("every citation of a document in the code names a heading of it", () => {
  const files = ["src", "web", "scripts", "deploy", "test", ".ci", ".github"].flatMap(sources);
  // A file, the heading's text up to , ; ) or a quote, and maybe a quoted part of that section (a
  // bullet's bold words), as in: docs/security.md, then Security, then "Hostile requests".
  const citation = /\b(README(?:\.md)?|docs\/[\w-]+\.md): ([A-Z][^,;)"\n*]*)(?:, "([^"]+)")?/g;
  const wrong: string[] = [];
  let cited = 0;
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8").replace(/\n\s*(\/\/|#|\*) ?/g, " "); // comments joined across lines
    for (const [, doc, name, part] of text.matchAll(citation)) {
      const path = doc === "README" ? "README.md" : doc!;
      const wanted = name!.trim().replace(/\.$/, "").toLowerCase();
      cited++;
      if (!existsSync(join(ROOT, path))) wrong.push(`${relative(ROOT, join(ROOT, file))}: ${path} does not exist`);
      else if (!headings(path).some((h) => h.toLowerCase().startsWith(wanted))) wrong.push(`${file}: no heading "${name!.trim()}" in ${path}`);
      else if (part !== undefined && !read(path).toLowerCase().includes(part.toLowerCase())) wrong.push(`${file}: no "${part}" in ${path}`);
    }
  }
  expect(cited).toBeGreaterThan(50);
  expect(wrong).toEqual([]);
});
