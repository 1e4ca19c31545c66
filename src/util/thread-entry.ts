// Where a Worker's entry point is. In the compiled binary the thread entry points are embedded
// (scripts/lib/compile.ts lists them), named by their path below the entry points' common folder,
// src/; a URL from import.meta.url would point at the source file on the build machine instead.
// From source, that URL (src/<file>, relative to this folder) is right.

/** The entry point of a thread, `file` being its path below src/ (e.g. "recorder-thread.ts"). */
export function threadEntry(file: string): string {
  return Bun.main.startsWith("/$bunfs/") ? `./${file}` : new URL(`../${file}`, import.meta.url).href;
}
