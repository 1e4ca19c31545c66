// How far an import is, as it goes: a bar redrawn in place on a terminal, one line a second
// otherwise (a log, a pipe, CI), and the same figures for the dashboard's dialog (its snapshot).

export type ProgressSnapshot = { phase: string; done: number; total: number | null; perSecond: number };

export type Progress = {
  /** A new phase ("links", "visits", "counts"), with its total when known. */
  phase(name: string, total: number | null): void;
  add(n: number): void;
  /** The phase is over: the last figures are said once more. */
  end(): void;
  snapshot(): ProgressSnapshot;
};

export function createProgress(write: ((line: string) => void) | null, terminal: boolean, now: () => number = Date.now): Progress {
  let phase = "";
  let total: number | null = null;
  let done = 0;
  let startedAt = now();
  let saidAt = 0;
  let said = "";
  const perSecond = () => {
    const seconds = (now() - startedAt) / 1000;
    return seconds > 0 ? Math.round(done / seconds) : 0;
  };
  const line = () => {
    const of = total === null ? `${done.toLocaleString("en")}` : `${done.toLocaleString("en")} of ${total.toLocaleString("en")}`;
    const bar = total === null || total === 0 ? "" : `[${"#".repeat(Math.round((20 * done) / total)).padEnd(20, ".")}] `;
    return `${phase}: ${bar}${of}, ${perSecond().toLocaleString("en")}/s`;
  };
  const say = (force: boolean) => {
    if (write === null) return;
    const t = now();
    if (!force && t - saidAt < (terminal ? 100 : 1000)) return;
    const text = line();
    // The end of a phase says its figures once more, unless they were just said.
    if (force && text === said) return;
    saidAt = t;
    said = text;
    write(terminal ? `\r\x1b[2K${text}` : `${text}\n`);
  };
  return {
    phase(name, size) {
      phase = name;
      total = size;
      done = 0;
      startedAt = now();
      saidAt = 0;
      said = "";
    },
    add(n) {
      done += n;
      say(false);
    },
    end() {
      say(true);
      if (terminal && write !== null) write("\n");
    },
    snapshot: () => ({ phase, done, total, perSecond: perSecond() }),
  };
}
