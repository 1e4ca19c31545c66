// Small parts the rules and split editors are built from: inputs named by aria-label (their visible
// caption is the row's header or placeholder; a screen reader hears "Rule 2, … Variant 1: URL"),
// and one error line per editor part that marks the input at fault.
import { el, uniqueId } from "../common.ts";
import { iconElement } from "../icons.ts";

/** A text-like input with an accessible name; URL fields get the browser's URL keyboard. */
export function input(type: "text" | "url" | "number" | "datetime-local", className: string, placeholder = ""): HTMLInputElement {
  const field = el("input", className);
  field.type = type;
  if (placeholder) field.placeholder = placeholder;
  if (type !== "number" && type !== "datetime-local") {
    field.autocomplete = "off";
    field.spellcheck = false;
    field.setAttribute("autocapitalize", "none");
  }
  if (type === "url") field.inputMode = "url";
  return field;
}

/** A select of value → label pairs. */
export function select(className: string, options: readonly (readonly [string, string])[]): HTMLSelectElement {
  const list = el("select", className);
  for (const [value, label] of options) list.append(new Option(label, value));
  return list;
}

/** A small "Add …" button with its plus sign. */
export function addButton(label: string): HTMLButtonElement {
  const button = el("button", "btn btn-small btn-add");
  button.type = "button";
  button.append(iconElement("plus"), label);
  return button;
}

/** The error line of an editor part; hidden until a problem is shown. */
export function errorLine(): HTMLParagraphElement {
  const line = el("p", "field-error");
  line.id = uniqueId("editor-error");
  line.hidden = true;
  return line;
}

/** Shows `text` on the error line and marks `field` as the input at fault, described by it. */
export function showError(line: HTMLElement, field: HTMLElement | null, text: string): void {
  line.textContent = text;
  line.hidden = false;
  if (!field) return;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", line.id);
}

/** Hides the error line and unmarks every input of `part`. */
export function clearError(line: HTMLElement, part: HTMLElement): void {
  line.hidden = true;
  line.textContent = "";
  for (const field of part.querySelectorAll(`[aria-describedby="${line.id}"]`)) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
}
