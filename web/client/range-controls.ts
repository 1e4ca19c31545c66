// The controls every statistics page has above its figures (the stats page, a tag's or a domain's):
// the range buttons, the custom range's form and the bots switch. Each change reads the figures
// again; a custom range is read only once its form is sent, with its two days in order.

import { byId } from "./common.ts";

/** `refresh`: read the figures again; `setCustom`: the custom range the form sent. */
export type RangeControls = { selected: () => string; refresh: () => void; setCustom: (range: { from: string; to: string }) => void };

export function bindRangeControls(c: RangeControls): void {
  const customForm = byId<HTMLFormElement>("custom-range");
  const [fromInput, toInput] = [byId<HTMLInputElement>("range-from"), byId<HTMLInputElement>("range-to")];
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="range"]')) {
    radio.addEventListener("change", () => {
      customForm.hidden = c.selected() !== "custom";
      if (c.selected() !== "custom") c.refresh();
    });
  }
  customForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!fromInput.value || !toInput.value) return;
    const [from, to] = [fromInput.value, toInput.value].sort() as [string, string];
    c.setCustom({ from, to });
    c.refresh();
  });
  byId<HTMLInputElement>("exclude-bots").addEventListener("change", () => c.refresh());
}
