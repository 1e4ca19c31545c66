// The sources an import can read, by the name --from gives, and the options each takes (the
// command line's flags, or the dashboard dialog's fields of the same names).

import { readFileSync } from "node:fs";
import { SourceError, type ImportSource } from "../source.ts";
import { yourlsSource } from "./yourls.ts";
import { shlinkSource } from "./shlink.ts";
import { kuttSource } from "./kutt.ts";
import { bitlySource } from "./bitly.ts";
import { csvSource } from "./csv.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";

export const SOURCES = ["shlink", "yourls", "kutt", "bitly", "csv"] as const;
export type SourceKind = (typeof SOURCES)[number];

/** What a source is opened with: flags by their names (url, api-key-file, source-db, prefix, token, group, file, map), plus text given directly. */
export type SourceOptions = Partial<Record<"url" | "api-key-file" | "api-key" | "source-db" | "prefix" | "token" | "token-file" | "group" | "file" | "map" | "csv-text", string>>;

/**
 * The source --from names. `reach`: where it may connect (docs/security.md: Security, "Outbound requests"):
 * the command line reaches anything the host does, the dashboard's import no special-purpose
 * address without --import-allow-private.
 */
export function openSource(kind: string | undefined, o: SourceOptions, env: Record<string, string | undefined>, reach: OutboundPolicy): ImportSource {
  switch (kind) {
    case "yourls":
      return yourlsSource({ sourceDb: o["source-db"], prefix: o.prefix, password: env.YOURLS_DB_PASSWORD, reach });
    case "shlink":
      return shlinkSource({ url: o.url, apiKey: apiKey(o, env.SHLINK_API_KEY, "SHLINK_API_KEY"), reach });
    case "kutt":
      return kuttSource({ url: o.url, apiKey: apiKey(o, env.KUTT_API_KEY, "KUTT_API_KEY"), reach });
    case "bitly": {
      const token = o.token ?? (o["token-file"] !== undefined ? secretFile("--token-file", o["token-file"]) : env.BITLY_TOKEN);
      if (!token) throw new SourceError("--token-file FILE (or BITLY_TOKEN) is required: a Bitly access token (bitly.com, Settings, API)", "bad_option");
      return bitlySource({ token, group: o.group, base: o.url, reach });
    }
    case "csv":
      return csvSource({ file: o.file, text: o["csv-text"], map: o.map });
    default:
      throw new SourceError(kind === undefined ? `--from is required: one of ${SOURCES.join(", ")}` : `--from ${kind} is not a source this shortener reads (${SOURCES.join(", ")})`, "bad_option");
  }
}

// A key from a file (the safe way: not in the process list or the shell's history) or the environment.
function apiKey(o: SourceOptions, fromEnv: string | undefined, envName: string): string {
  if (o["api-key"]) return o["api-key"];
  const file = o["api-key-file"];
  if (file !== undefined) return secretFile("--api-key-file", file);
  if (fromEnv) return fromEnv.trim();
  throw new SourceError(`the API key is required: --api-key-file FILE, or ${envName}`, "bad_option");
}

/** A key or token kept in a file: trimmed, and refused when the file is missing or empty. */
function secretFile(flag: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (err) {
    throw new SourceError(`${flag} ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, "bad_option");
  }
  if (text === "") throw new SourceError(`${flag} ${file} is empty`, "bad_option");
  return text;
}
