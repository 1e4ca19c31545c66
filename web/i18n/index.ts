// All translations, one JSON file per language; English defines the keys every other file must have.
// The server reads a language's file the first time a page in it is rendered, not at the start: all
// ten as objects would be about 0.9 MB of an idle service's heap (docs/performance.md: At rest).
// The files are embedded in the compiled binary ("file" imports; a disk path when run from source).
// The browser never imports this module's values: a page carries its language's messages.
import { readFileSync } from "node:fs";
import type en from "./en.json";
import type { Language } from "../../src/lang.ts";
// @ts-ignore -- TypeScript types a JSON import as its object; `type: "file"` makes it the file's path.
import enFile from "./en.json" with { type: "file" };
// @ts-ignore
import deFile from "./de.json" with { type: "file" };
// @ts-ignore
import frFile from "./fr.json" with { type: "file" };
// @ts-ignore
import esFile from "./es.json" with { type: "file" };
// @ts-ignore
import ptFile from "./pt.json" with { type: "file" };
// @ts-ignore
import itFile from "./it.json" with { type: "file" };
// @ts-ignore
import nlFile from "./nl.json" with { type: "file" };
// @ts-ignore
import plFile from "./pl.json" with { type: "file" };
// @ts-ignore
import jaFile from "./ja.json" with { type: "file" };
// @ts-ignore
import zhFile from "./zh.json" with { type: "file" };

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const FILES = { en: enFile, de: deFile, fr: frFile, es: esFile, pt: ptFile, it: itFile, nl: nlFile, pl: plFile, ja: jaFile, zh: zhFile } as unknown as Record<Language, string>;

/** A language's messages, read from its file on first use and kept. */
export const MESSAGES = {} as Record<Language, Messages>;
for (const [lang, file] of Object.entries(FILES) as [Language, string][]) {
  let messages: Messages | undefined;
  Object.defineProperty(MESSAGES, lang, { enumerable: true, get: () => (messages ??= JSON.parse(readFileSync(file, "utf8")) as Messages) });
}

/** Replaces `{name}` placeholders in a message with the given values. */
export function format(message: string, vars: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
