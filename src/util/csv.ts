// CSV as RFC 4180 writes it: comma-separated, fields with a comma, quote or line break in double
// quotes, "" for a quote inside; CRLF or LF between records; a UTF-8 byte order mark is skipped.
// One addition both ways: a cell a spreadsheet would run as a formula is written with a ' before it
// (see formulaCell), and reading takes that ' off again.

export class CsvError extends Error {}

/**
 * The records of the text; parsing stops once `maxRecords` records that are not blank lines were
 * read (the caller refuses more, so reading on would only cost memory). Throws CsvError for an
 * unterminated quoted field.
 */
export function parseCsv(text: string, maxRecords = Infinity): string[][] {
  const records: string[][] = [];
  let counted = 0;
  let record: string[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  // The end of an unquoted field: a comma or a line break (a field is sliced, not built a character at a time).
  const delimiter = /[,\r\n]/g;
  while (i <= text.length) {
    let field = "";
    const quoted = text[i] === '"';
    if (quoted) {
      // A quoted field: up to the closing quote not followed by another.
      const startLine = line;
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new CsvError(`line ${startLine}: a quoted field is never closed`);
        const part = text.slice(i, q);
        line += part.split("\n").length - 1;
        field += part;
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    }
    // Up to the delimiter (after a quoted part, what follows its closing quote belongs to the field too).
    delimiter.lastIndex = i;
    const end = delimiter.exec(text)?.index ?? text.length;
    field += text.slice(i, end);
    i = end;
    record.push(unescapeFormula(field));
    const c = text[i];
    if (c === ",") {
      i++;
      continue;
    }
    // A line break, or the end of the text.
    if (i >= text.length && record.length === 1 && field === "" && !quoted) break; // a final line break ends the last record
    records.push(record);
    if (!(record.length === 1 && field === "") && ++counted >= maxRecords) return records;
    if (i >= text.length) break;
    record = [];
    i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    line++;
  }
  return records;
}

/** One CSV record with CRLF, quoting only the fields that need it. */
export function csvRecord(fields: readonly (string | number | null)[]): string {
  return fields.map((f) => (f === null ? "" : quote(escapeFormula(String(f))))).join(",") + "\r\n";
}

/**
 * Whether a spreadsheet would run the cell as a formula (CSV injection): it starts with = + - @ tab
 * or CR (OWASP's list), after any ' already there. Export writes such a cell with one ' before it,
 * which spreadsheets show as text and do not run; import takes exactly that ' off, so an alias or
 * tag like "-x" comes back as it was. Counting the 's before it (not only the first character) is
 * what makes the round trip lossless for every text: "'-x" is written "''-x" and read back "'-x",
 * while "'hello" or "'" alone is written and read unchanged.
 */
function formulaCell(cell: string): boolean {
  return /^'*[=+\-@\t\r]/.test(cell);
}

/** The cell as written: a ' before a cell that formulaCell says a spreadsheet would run. */
export function escapeFormula(cell: string): string {
  return formulaCell(cell) ? `'${cell}` : cell;
}

/** The cell as read: the ' that escapeFormula put before it taken off; any other cell unchanged. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && formulaCell(cell.slice(1)) ? cell.slice(1) : cell;
}

function quote(field: string): string {
  return /[",\r\n]/.test(field) || /^\s|\s$/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}
