// Every language file has exactly English's keys, the same {placeholders}, and real translations.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LANGUAGES } from "../../src/lang.ts";
import { REPO_ROOT } from "../support/server.ts";

const DIR = join(REPO_ROOT, "web/i18n");
const load = (lang: string): Record<string, string> => JSON.parse(readFileSync(join(DIR, `${lang}.json`), "utf8"));
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const en = load("en");
const keys = Object.keys(en).sort();

describe("translations", () => {
  test("there is one file per interface language and no other", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  for (const lang of LANGUAGES) {
    test(`${lang}: same keys as English, no missing or extra`, () => {
      const messages = load(lang);
      const have = Object.keys(messages);
      expect(keys.filter((k) => !have.includes(k))).toEqual([]); // missing
      expect(have.filter((k) => !keys.includes(k))).toEqual([]); // extra
    });

    test(`${lang}: every message is a non-empty string with English's placeholders`, () => {
      const messages = load(lang);
      for (const key of keys) {
        const value = messages[key];
        expect(typeof value, `${lang}.${key}`).toBe("string");
        expect(value!.trim().length, `${lang}.${key}`).toBeGreaterThan(0);
        expect(placeholders(value!), `${lang}.${key}`).toEqual(placeholders(en[key]!));
      }
    });
  }

  test("translations are real: most messages differ from English", () => {
    for (const lang of LANGUAGES.filter((l) => l !== "en")) {
      const messages = load(lang);
      const same = keys.filter((k) => messages[k] === en[k]).length;
      // Brand name, "Bot", "Tablet"... may match; a copied file would not pass this.
      expect(same / keys.length, lang).toBeLessThan(0.15);
    }
  });
});
