// What the account commands print: aligned columns, and times as people read them.

/** Rows as aligned columns (the last one unpadded), a line each. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "));
}

/** An ISO time to the second, or "never". */
export function when(ms: number | null): string {
  return ms === null ? "never" : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export type Output = { out: (line: string) => void; err: (line: string) => void };
export const STDIO: Output = { out: (l) => console.log(l), err: (l) => console.error(l) };
