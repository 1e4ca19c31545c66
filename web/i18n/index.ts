// All translations, one JSON file per language; English defines the keys every other file must have.
import en from "./en.json";
import de from "./de.json";
import fr from "./fr.json";
import es from "./es.json";
import pt from "./pt.json";
import it from "./it.json";
import nl from "./nl.json";
import pl from "./pl.json";
import ja from "./ja.json";
import zh from "./zh.json";
import type { Language } from "../../src/lang.ts";

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

export const MESSAGES: Record<Language, Messages> = { en, de, fr, es, pt, it, nl, pl, ja, zh };

/** Replaces `{name}` placeholders in a message with the given values. */
export function format(message: string, vars: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
