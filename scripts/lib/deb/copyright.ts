// /usr/share/doc/shortener/copyright in Debian's machine-readable format (DEP-5), from the repo's
// LICENSE and NOTICE.md: our code, then every third-party work NOTICE.md says the binary contains,
// each with the holders its own license file names (read from node_modules, as bundled).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const FORMAT = "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/";

// DEP-5's short names: "MIT" is ambiguous there, the MIT license npm means is "Expat".
const SHORT_NAMES: Record<string, string> = { MIT: "Expat", "BSD-3-Clause": "BSD-3-Clause", Unlicense: "Unlicense" };

type Work = { files: string[]; copyright: string[]; license: string; comment: string | null };

/** Continuation lines as DEP-5 wants them: indented by one space, an empty line as " .". */
function indented(text: string): string {
  return text.trim().split("\n").map((line) => (line.trim() === "" ? " ." : ` ${line.trimEnd()}`)).join("\n");
}

/** A field's value: its first line after the name, the rest as continuation lines. */
function fold(text: string): string {
  const [first = "", ...rest] = text.trim().split("\n");
  return rest.length === 0 ? first : `${first}\n${indented(rest.join("\n"))}`;
}

/** Markdown's wrapped lines joined, its paragraphs kept (fold writes them apart with " ."). */
function unwrap(text: string): string {
  return text.trim().replace(/(?<!\n)\n(?!\n)/g, " ");
}

function field(name: string, value: string): string {
  return `${name}: ${fold(value)}`;
}

/** Copyright lines of a license file, "Copyright (c)" dropped; none for a public-domain dedication. */
function holders(text: string): string[] {
  return [...text.matchAll(/^\s*Copyright\s+(?:\(c\)\s*|©\s*)?(\d.*)$/gim)].map((m) => m[1]!.trim().replace(/<<(.+)>>/, "<$1>"));
}

function licenseFile(folder: string): string | null {
  const name = existsSync(folder) ? readdirSync(folder).find((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f)) : undefined;
  return name ? readFileSync(join(folder, name), "utf8") : null;
}

/** The body of a license file below its copyright lines (the text every copy must carry). */
function licenseText(text: string, from: RegExp): string {
  const start = text.search(from);
  if (start === -1) throw new Error(`license text not found (${from})`);
  return text.slice(start).replace(/^# .*\n+/, "");
}

/** NOTICE.md's "## Libraries" table: each row's packages (npm names) and license. */
function libraryRows(notice: string): { names: string[]; license: string; note: string }[] {
  const table = /## Libraries\n([\s\S]*?)(?:\n## |\n[^|\n][^\n]*\n*$|$)/.exec(notice)?.[1] ?? "";
  const rows = table.split("\n").filter((l) => l.startsWith("|") && !/^\|\s*(Library|---)/.test(l));
  if (rows.length === 0) throw new Error("NOTICE.md: no rows in the Libraries table");
  return rows.map((row) => {
    const [libraries = "", license = ""] = row.split("|").slice(1, -1).map((c) => c.trim());
    // "ua-parser-js 1.0.x", "Bun runtime (the executable's runtime)": the npm name is the first word.
    const names = libraries.split(",").map((item) => item.trim().split(/\s+/)[0]!.toLowerCase());
    return { names, license, note: `${libraries}: ${license}` };
  });
}

function libraryWork(root: string, name: string, license: string, note: string): Work {
  const folder = join(root, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version: string; author?: string | { name: string } };
  const found = holders(licenseFile(folder) ?? "");
  const author = typeof pkg.author === "string" ? pkg.author : pkg.author?.name;
  const short = SHORT_NAMES[license.split(/\s/)[0]!];
  if (!short) throw new Error(`NOTICE.md: no DEP-5 short name for the license "${license}" of ${name}`);
  return {
    files: [`node_modules/${name}/*`],
    // Without a copyright line (Bun's npm package has no license file; isbot is public domain), the
    // package's author, or its authors by name.
    copyright: found.length > 0 ? found : [author ?? `the ${name} authors`],
    license: short,
    comment: `Bundled into the executable: ${name} ${pkg.version} (NOTICE.md: ${note}).`,
  };
}

function paragraph(work: Work): string {
  return [
    field("Files", work.files.join("\n")),
    field("Copyright", work.copyright.join("\n")),
    field("License", work.license),
    ...(work.comment ? [field("Comment", work.comment)] : []),
  ].join("\n");
}

export function copyrightFile(root: string, source: string): string {
  const license = readFileSync(join(root, "LICENSE"), "utf8");
  const notice = readFileSync(join(root, "NOTICE.md"), "utf8");
  const ours: Work = { files: ["*"], copyright: holders(license), license: "Expat", comment: null };
  if (ours.copyright.length === 0) throw new Error("LICENSE: no copyright line");

  // The GeoLite2 data has terms of its own (CC BY-SA 4.0 and MaxMind's EULA), stated in NOTICE.md.
  const geo = /## GeoLite2[^\n]*\n([\s\S]*?)(?=\n## |$)/.exec(notice);
  const geoPackage = geo && /`(@ip-location-db\/[^`]+)`/.exec(geo[1]!)?.[1];
  if (!geo || !geoPackage || !/Attribution-ShareAlike 4\.0/.test(geo[1]!)) throw new Error("NOTICE.md: the GeoLite2 section no longer names its package and CC BY-SA 4.0");
  const geoFolder = join(root, "node_modules", geoPackage);
  const geoWork: Work = {
    files: [`node_modules/${geoPackage}/*`],
    copyright: ["MaxMind, Inc."],
    license: "CC-BY-SA-4.0",
    comment: unwrap(geo[1]!),
  };

  const libraries = libraryRows(notice).flatMap((row) => row.names.map((name) => libraryWork(root, name, row.license, row.note)));
  const used = new Set([ours, geoWork, ...libraries].map((w) => w.license));

  const texts: Record<string, string> = {
    Expat: licenseText(license, /^Permission is hereby granted/m),
    "BSD-3-Clause": licenseText(licenseFile(join(root, "node_modules/tiny-lru")) ?? "", /^Redistribution and use/m),
    Unlicense: licenseText(licenseFile(join(root, "node_modules/isbot")) ?? "", /^This is free and unencumbered/m),
    // The license allows the URI instead of its text (section 3(a)(1)(C)); the package's own terms,
    // which it requires to be kept, follow.
    "CC-BY-SA-4.0": `Creative Commons Attribution-ShareAlike 4.0 International:\nhttps://creativecommons.org/licenses/by-sa/4.0/legalcode\nsubject to MaxMind's GeoLite2 End User License Agreement, https://www.maxmind.com/en/geolite2/eula\n\n${readFileSync(join(geoFolder, "GEOLITE2_LICENSE"), "utf8")}`,
  };

  const header = [
    field("Format", FORMAT),
    field("Upstream-Name", "shortener"),
    field("Source", source),
    field("Comment", `${unwrap(notice.split("\n## ")[0]!.replace(/^# .*\n+/, ""))}\n\nThis product includes GeoLite2 Data created by MaxMind, available from https://www.maxmind.com/.`),
  ].join("\n");
  const licenses = [...used].sort().map((name) => `License: ${name}\n${indented(texts[name]!)}`);
  return `${[header, ...[ours, geoWork, ...libraries].map(paragraph), ...licenses].join("\n\n")}\n`;
}
