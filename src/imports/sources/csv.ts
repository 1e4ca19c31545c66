// Any CSV with a header, for every shortener without an importer of its own: --map says which of
// its columns hold what (long=Destination,alias=Keyword,…). A row without an alias gets a new id;
// it is remembered by its row number and destination, so running the same file again adds nothing.

import { readFileSync, realpathSync } from "node:fs";
import { CsvError, parseCsv } from "../../util/csv.ts";
import { SourceError, type ImportSource, type SourceLink } from "../source.ts";
import { sourceTime } from "./time.ts";

/** Our fields a column can fill; long is required. */
const FIELDS = ["long", "alias", "created", "tags", "expires", "title", "domain", "card_title", "card_description", "card_image"] as const;
type Field = (typeof FIELDS)[number];
const DEFAULT_MAP: Record<Field, string> = {
  long: "url", alias: "custom_url", created: "created_at", tags: "tags", expires: "expires_at", title: "title", domain: "domain",
  card_title: "card_title", card_description: "card_description", card_image: "card_image",
};

export function csvSource(o: { file: string | undefined; text?: string; map: string | undefined }): ImportSource {
  const map = parseMap(o.map);
  let text = o.text;
  if (text === undefined) {
    if (o.file === undefined) throw new SourceError("--file is required: the CSV to read", "bad_option");
    try {
      text = readFileSync(o.file, "utf8");
    } catch (err) {
      throw new SourceError(`--file ${o.file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, "bad_option");
    }
  }
  const body = text.replace(/^\uFEFF/, ""); // a spreadsheet's byte-order mark
  return {
    kind: "csv",
    // The file wherever it was named from (./links.csv, /home/me/links.csv); an upload by its content.
    identity: o.file !== undefined ? `csv ${realpathSync(o.file)}` : `csv upload ${new Bun.CryptoHasher("sha256").update(body).digest("hex").slice(0, 16)}`,
    keeps: "nothing",
    async *links() {
      let records: string[][];
      try {
        records = parseCsv(body);
      } catch (err) {
        throw new SourceError(`the CSV cannot be read: ${err instanceof CsvError ? err.message : String(err)}`, "schema");
      }
      const header = (records.shift() ?? []).map((h) => h.trim().toLowerCase());
      const at = Object.fromEntries(FIELDS.map((f) => [f, header.indexOf(map[f].toLowerCase())])) as Record<Field, number>;
      if (at.long < 0) throw new SourceError(`the CSV has no column "${map.long}" for the destination (its columns: ${header.join(", ")}); say which with --map long=COLUMN`, "schema");
      const links: SourceLink[] = [];
      records.forEach((r, i) => {
        if (r.length === 1 && r[0]!.trim() === "") return; // a blank line
        const cell = (f: Field) => (at[f] >= 0 ? (r[at[f]] ?? "").trim() : "");
        const alias = cell("alias");
        // A row's domain (empty: our default) is part of its identity: the same alias on two domains is two links.
        const domain = cell("domain").toLowerCase() || null;
        links.push({
          key: alias === "" ? `row ${i + 2} ${cell("long")}` : domain === null ? alias : `${domain}/${alias}`, domain, code: alias === "" ? null : alias, url: cell("long"), createdAt: sourceTime(cell("created")) ?? Date.now(),
          tags: cell("tags").split(/[,|;]/).map((t) => t.trim()).filter((t) => t !== ""), expiresAt: sourceTime(cell("expires")), validFrom: null, maxClicks: null,
          title: cell("title") || null, disabledBecause: null, dropped: [], clicks: null,
          card: { cardTitle: cell("card_title") || null, cardDescription: cell("card_description") || null, cardImage: cell("card_image") || null },
        });
      });
      yield links;
    },
  };
}

function parseMap(given: string | undefined): Record<Field, string> {
  const map = { ...DEFAULT_MAP };
  if (given === undefined || given.trim() === "") return map;
  for (const pair of given.split(",")) {
    const eq = pair.indexOf("=");
    const field = pair.slice(0, eq).trim() as Field;
    if (eq < 1 || !FIELDS.includes(field)) throw new SourceError(`--map: "${pair}" is not FIELD=COLUMN with FIELD one of ${FIELDS.join(", ")}`, "bad_option");
    map[field] = pair.slice(eq + 1).trim();
  }
  return map;
}
