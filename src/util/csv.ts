// CSV as RFC 4180 writes it: comma-separated, fields with a comma, quote or line break in double
// quotes, "" for a quote inside; CRLF or LF between records; a UTF-8 byte order mark is skipped.

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
  let field = "";
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fieldStarted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === "" && !fieldStarted) {
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
      fieldStarted = true;
      continue;
    }
    if (c === ",") {
      record.push(field);
      field = "";
      fieldStarted = false;
      i++;
    } else if (c === "\n" || c === "\r") {
      record.push(field);
      records.push(record);
      if (!(record.length === 1 && field === "") && ++counted >= maxRecords) return records;
      record = [];
      field = "";
      fieldStarted = false;
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
    } else {
      field += c;
      fieldStarted = true;
      i++;
    }
  }
  if (fieldStarted || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** One CSV record with CRLF, quoting only the fields that need it. */
export function csvRecord(fields: readonly (string | number | null)[]): string {
  return fields.map((f) => (f === null ? "" : quote(String(f)))).join(",") + "\r\n";
}

function quote(field: string): string {
  return /[",\r\n]/.test(field) || /^\s|\s$/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}
