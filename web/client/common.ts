// Shared by the page scripts: the page language, its messages (from the server-rendered JSON
// block), Intl formatters, small DOM helpers and the copy button.
import type { MessageKey, Messages } from "../i18n/index.ts";

export const lang = document.documentElement.lang || "en";

const messages: Partial<Messages> = JSON.parse(document.getElementById("i18n")?.textContent ?? "{}");

/** The translated message for key, with `{name}` placeholders filled in. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  const message = messages[key] ?? key;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The element with this id; throws when the page template lacks it (a bug, not a user error). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

/** Creates an element with text content only — visitor-supplied strings never become HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

let lastId = 0;

/** A fresh element id for controls made by script (a label's `for`, an error's aria-describedby). */
export function uniqueId(prefix: string): string {
  return `${prefix}-${++lastId}`;
}

const numberFormat = new Intl.NumberFormat(lang);

/** A whole number in the page locale. */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** Copies text to the clipboard, with a fallback for pages not in a secure context (plain http on a LAN). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection-based fallback
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "sr-only";
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Wires a button to copy the current value of getText(), announcing the result on the button. */
export function bindCopyButton(button: HTMLButtonElement, getText: () => string): void {
  const label = button.textContent ?? t("copy");
  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener("click", async () => {
    const ok = await copyText(getText());
    button.textContent = ok ? t("copied") : t("copy_failed");
    clearTimeout(timer);
    timer = setTimeout(() => (button.textContent = label), 1600);
  });
}

// The language menu is a <details>: close it on Escape (focus back on its summary) or a click outside.
const langMenu = document.querySelector<HTMLDetailsElement>(".lang-menu");
if (langMenu) {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && langMenu.open) {
      langMenu.open = false;
      langMenu.querySelector("summary")?.focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (langMenu.open && !langMenu.contains(e.target as Node)) langMenu.open = false;
  });
}
