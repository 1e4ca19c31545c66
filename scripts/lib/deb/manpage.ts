// shortener(1) for the .deb, written from the binary's own `--help` so that the page says what that
// binary does: the first line becomes NAME, "Usage:" the COMMANDS, "Flags (…):" the OPTIONS.

type Entry = { term: string; text: string };
type Section = { heading: string; entries: Entry[] };
export type Help = { name: string; summary: string; sections: Section[] };

/** The help text in its parts; throws when it no longer has the shape this reads. */
export function parseHelp(help: string): Help {
  const [first, ...paragraphs] = help.trimEnd().split(/\n\s*\n/);
  const title = /^(\S+) \S+: (.+?)\.?$/.exec(first?.trim() ?? "");
  if (!title) throw new Error(`--help: the first line is not "name version: summary": ${first}`);
  const sections = paragraphs.map((paragraph) => {
    const [heading, ...lines] = paragraph.split("\n");
    if (!heading?.endsWith(":")) throw new Error(`--help: a paragraph without a heading: ${heading}`);
    const entries: Entry[] = [];
    for (const line of lines) {
      const indent = /^ */.exec(line)![0].length;
      if (indent > 2 && entries.length > 0) {
        // A continuation: the description of a long command, on the line below it.
        const last = entries[entries.length - 1]!;
        last.text = `${last.text} ${line.trim()}`.trim();
      } else if (indent === 2) entries.push(splitEntry(line.slice(2)));
      else throw new Error(`--help: a line this does not understand: ${line}`);
    }
    return { heading: heading.slice(0, -1), entries };
  });
  return { name: title[1]!, summary: title[2]!, sections };
}

/**
 * "term   description" split at the column gap. A flag ("--name" or "--name VALUE") is split after
 * its name instead, because a name as long as the column leaves a single space before its description.
 */
function splitEntry(line: string): Entry {
  const flag = /^(--[a-z0-9-]+(?: VALUE\b)?)(.*)$/.exec(line);
  if (flag) return { term: flag[1]!, text: flag[2]!.trim() };
  const gap = /\s{2,}/.exec(line);
  return gap ? { term: line.slice(0, gap.index), text: line.slice(gap.index).trim() } : { term: line.trim(), text: "" };
}

/** Text safe in a roff line: backslashes and hyphens (minus signs in options) escaped, non-ASCII as \[uXXXX]. */
export function roff(text: string): string {
  return text
    .replaceAll("\\", "\\e")
    .replaceAll("-", "\\-")
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`)
    .replace(/^([.'])/, "\\&$1");
}

/** A command or flag in bold, its placeholders (NAME, VALUE, TYPE,…) in italics. */
function term(text: string): string {
  const marked = text.split(/(\b[A-Z][A-Z]+\b[,…]*)/).map((part, i) => (i % 2 === 1 ? `\\fI${roff(part)}\\fB` : roff(part)));
  return `\\fB${marked.join("")}\\fR`;
}

/** OPTIONS for "Flags (…)", COMMANDS for "Usage"; anything else keeps its own heading. */
function heading(text: string): { title: string; note: string | null } {
  const m = /^(\w[\w ]*?)\s*(?:\((.+)\))?$/.exec(text);
  const base = m?.[1] ?? text;
  const title = base === "Flags" ? "OPTIONS" : base === "Usage" ? "COMMANDS" : base.toUpperCase();
  return { title, note: m?.[2] ?? null };
}

export type ManPageExtras = {
  version: string;
  /** YYYY-MM-DD, the build's date: a page written twice is the same page. */
  date: string;
  /** Sections after the ones from --help (FILES, SEE ALSO), as [heading, roff body]. */
  tail: [string, string][];
};

export function manPage(help: Help, extras: ManPageExtras): string {
  const name = help.name;
  const out: string[] = [
    `.\\" Written by scripts/release-deb.ts from \`${name} --help\`; change the help text, not this page.`,
    `.TH ${name.toUpperCase()} 1 "${extras.date}" "${roff(`${name} ${extras.version}`)}" "User Commands"`,
    // No hyphenation and a ragged right: URLs and paths stay whole, as in the --help they come from.
    ".nh",
    ".ad l",
    ".SH NAME",
    `${roff(name)} \\- ${roff(help.summary)}`,
    ".SH SYNOPSIS",
    `.B ${roff(name)}`,
    "[\\fIflags\\fR]",
    ".br",
    `.B ${roff(name)}`,
    "\\fIcommand\\fR [\\fIarguments\\fR] [\\fIflags\\fR]",
    ".SH DESCRIPTION",
    `${roff(name)} is ${roff(help.summary)}.`,
    "Without a command it runs the service; the commands below work on its database.",
  ];
  for (const section of help.sections) {
    const { title, note } = heading(section.heading);
    out.push(`.SH ${title}`);
    if (note) out.push(`${roff(note[0]!.toUpperCase() + note.slice(1))}.`);
    for (const entry of section.entries) out.push(".TP", term(entry.term), roff(entry.text));
  }
  for (const [title, body] of extras.tail) out.push(`.SH ${title}`, body);
  return `${out.join("\n")}\n`;
}
