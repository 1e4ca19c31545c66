// Dates and times as the list shows them, in the page language: a short date, a relative time for
// the last click ("3 hours ago"), and the full local date and time for a tooltip.
import { lang } from "../common.ts";

const dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
const fullFormat = new Intl.DateTimeFormat(lang, { dateStyle: "full", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });

export function shortDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** Date and time: an expiry is an instant (a YYYY-MM-DD expiry ends at midnight UTC, after that day). */
export function dateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

export function fullDate(iso: string): string {
  return fullFormat.format(new Date(iso));
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];

/** "5 minutes ago", "yesterday", "in 3 days": the largest unit that fits. */
export function relativeTime(iso: string, now = Date.now()): string {
  let value = (Date.parse(iso) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

/** A <time> element with the short text, the machine value and the full date on hover. */
export function timeElement(iso: string, text: string): HTMLTimeElement {
  const time = document.createElement("time");
  time.dateTime = iso;
  time.textContent = text;
  time.title = fullDate(iso);
  return time;
}

/** "YYYY-MM-DDTHH:MM" in the browser's time zone, for a datetime-local input. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the browser's time zone) as an ISO instant with its zone, for the API. */
export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
