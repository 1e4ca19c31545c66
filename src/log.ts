// Plain log lines on stdout/stderr (journald adds the time), or one JSON object a line.

import type { LogFormat } from "./config.ts";

export type Fields = Record<string, string | number | boolean | null>;
export type Logger = { info(msg: string, fields?: Fields): void; error(msg: string, fields?: Fields): void };

export function createLogger(format: LogFormat): Logger {
  const line = (level: "info" | "error", msg: string, fields: Fields = {}) => {
    if (format === "json") return JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    const extra = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" && /\s/.test(v) ? JSON.stringify(v) : v}`);
    return [msg, ...extra].join(" ");
  };
  return {
    info: (msg, fields) => console.log(line("info", msg, fields)),
    error: (msg, fields) => console.error(line("error", msg, fields)),
  };
}

/** An error as a log field: its stack when it has one; anything thrown (even null) as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
