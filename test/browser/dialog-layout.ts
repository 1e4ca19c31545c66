// What is out of line or cut off among a dialog's fields, measured in the page: selects whose
// options do not fit, text cut short, controls not under their labels or not filling their field,
// controls stretched, fields side by side whose labels or controls do not line up, checkboxes
// beside the wrong line of their text. Run with page.evaluate(layoutProblems, "#link-dialog").

/** Problems of the fields inside `root`, in words; [] when every field is laid out well. */
export function layoutProblems(root: string): string[] {
  const dialog = document.querySelector(root)!;
  const problems: string[] = [];
  const shown = (el: Element) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().width > 0;
  const box = (el: Element) => el.getBoundingClientRect();
  const name = (el: Element) => el.id || el.getAttribute("for") || `${el.tagName.toLowerCase()}.${el.className}` || el.textContent?.slice(0, 30);
  const near = (a: number, b: number, by = 1) => Math.abs(a - b) <= by;
  const canvas = document.createElement("canvas").getContext("2d")!;

  // A select shows its chosen option in its content box and cannot wrap it: each option must fit.
  for (const select of dialog.querySelectorAll("select")) {
    if (!shown(select)) continue;
    const style = getComputedStyle(select);
    canvas.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const option of select.options) {
      const needs = canvas.measureText(option.text).width;
      if (needs > room) problems.push(`select ${name(select)}: "${option.text}" needs ${Math.ceil(needs)} px, has ${Math.floor(room)}`);
    }
  }

  // Text cut short: labels, hints, headings, buttons, a date's shown value.
  for (const el of dialog.querySelectorAll("label, .hint, .field-warning, summary, h2, h3, button, .rule-label, input[type='datetime-local']")) {
    if (!shown(el) || getComputedStyle(el).display === "inline") continue;
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)} is cut: ${el.scrollWidth} px in ${el.clientWidth}`);
  }

  // In each field, the control under its label, as wide as the field, not stretched.
  for (const field of dialog.querySelectorAll(".field")) {
    const label = field.querySelector(":scope > label:not(.check)");
    const control = field.querySelector(":scope > input:not([type='checkbox']), :scope > select, :scope > .affix");
    if (!label || !control || !shown(control)) continue;
    const [f, l, c] = [box(field), box(label), box(control)];
    if (!near(c.left, l.left)) problems.push(`${name(control)} starts at ${c.left}, its label at ${l.left}`);
    if (!near(c.width, f.width)) problems.push(`${name(control)} is ${c.width} px wide in a field of ${f.width}`);
    if (c.height < 38 || c.height > 50) problems.push(`${name(control)} is ${c.height} px tall`);
    if (c.top < l.bottom - 0.5) problems.push(`${name(control)} overlaps its label`);
  }

  // Fields side by side: labels on one line, controls on the next, of one height.
  for (const row of dialog.querySelectorAll(".field-row")) {
    const fields = [...row.querySelectorAll(":scope > .field")].filter(shown);
    const [a, b] = fields;
    if (!a || !b || !near(box(a).top, box(b).top)) continue; // stacked (a phone): nothing to line up
    const parts = (f: Element) => ({ label: box(f.querySelector(":scope > label")!), control: box(f.querySelector(":scope > input, :scope > select")!) });
    const [pa, pb] = [parts(a), parts(b)];
    if (!near(pa.label.top, pb.label.top)) problems.push(`labels of ${name(a.querySelector("label")!)} and ${name(b.querySelector("label")!)} at ${pa.label.top} and ${pb.label.top}`);
    if (!near(pa.control.top, pb.control.top)) problems.push(`controls of ${name(a.querySelector("label")!)} and ${name(b.querySelector("label")!)} start at ${pa.control.top} and ${pb.control.top}`);
    if (!near(pa.control.height, pb.control.height)) problems.push(`controls of ${name(a.querySelector("label")!)} and ${name(b.querySelector("label")!)} are ${pa.control.height} and ${pb.control.height} px tall`);
  }

  // A checkbox beside the first line of its text.
  for (const check of dialog.querySelectorAll("label.check")) {
    const input = check.querySelector("input");
    const text = check.querySelector("span");
    if (!input || !text || !shown(input)) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const line = range.getClientRects()[0]!;
    const i = box(input);
    if (!near(i.top + i.height / 2, line.top + line.height / 2, 3)) problems.push(`checkbox ${name(input)} is not beside its text's first line`);
  }

  // Nothing wider than the dialog's body.
  const body = box(dialog.querySelector(".dialog-body")!);
  for (const el of dialog.querySelectorAll("input, select, textarea, button, label")) {
    if (shown(el) && box(el).right > body.right + 0.5) problems.push(`${name(el)} runs past the dialog's edge`);
  }
  return problems;
}
