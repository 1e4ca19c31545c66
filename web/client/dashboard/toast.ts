// A short message after an action ("Disabled /abc"), shown at the bottom and read out by screen
// readers: the live region stays in the page; only its text and visibility change.
import { byId } from "../common.ts";

const box = byId("toast");
let timer: ReturnType<typeof setTimeout> | undefined;

export function toast(text: string, kind: "ok" | "error" = "ok"): void {
  clearTimeout(timer);
  box.textContent = text;
  box.classList.toggle("toast-error", kind === "error");
  box.classList.add("toast-show");
  timer = setTimeout(() => box.classList.remove("toast-show"), kind === "error" ? 8000 : 4000);
}
