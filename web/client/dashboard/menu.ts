// Action menus as popovers (the row menu, the export menu): opened by a button with
// popovertarget, placed under it, first item focused, arrow keys move, Escape or a click outside
// closes (the browser's light dismiss) and focus returns to the button.

export type MenuOptions = {
  /** Before it opens: which button opened it (one menu serves every row). */
  onOpen?: (opener: HTMLElement) => void;
  /** An item was chosen; the menu is already closed and focus is back on its button. */
  onChoose?: (item: HTMLElement) => void;
};

export function bindMenu(menu: HTMLElement, options: MenuOptions = {}): void {
  let opener: HTMLElement | null = null;
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter((item) => !item.hidden);

  // The button's click comes before the popover opens: note which one it was.
  document.addEventListener(
    "click",
    (e) => {
      const button = (e.target as Element | null)?.closest<HTMLElement>(`[popovertarget="${menu.id}"]`);
      if (button) opener = button;
    },
    true,
  );

  menu.addEventListener("beforetoggle", (e) => {
    const open = (e as ToggleEvent).newState === "open";
    opener?.setAttribute("aria-expanded", String(open));
    if (!open || !opener) return;
    options.onOpen?.(opener);
    // Under the button, its end aligned with the button's end (measured again once shown).
    const b = opener.getBoundingClientRect();
    menu.style.top = `${Math.round(b.bottom + 6)}px`;
    menu.style.right = `${Math.max(8, Math.round(document.documentElement.clientWidth - b.right))}px`;
  });

  menu.addEventListener("toggle", (e) => {
    if ((e as ToggleEvent).newState !== "open") return;
    // No room below: above the button instead.
    const m = menu.getBoundingClientRect();
    const b = opener?.getBoundingClientRect();
    if (b && m.bottom > window.innerHeight - 8 && b.top - 6 - m.height > 8) menu.style.top = `${Math.round(b.top - 6 - m.height)}px`;
    items()[0]?.focus();
  });

  menu.addEventListener("keydown", (e) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === "ArrowDown") go(at + 1);
    else if (e.key === "ArrowUp") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(list.length - 1);
    else if (e.key === "Tab") menu.hidePopover(); // focus goes back to the button, then Tab moves on
  });

  menu.addEventListener("click", (e) => {
    const item = (e.target as Element).closest<HTMLElement>('[role="menuitem"]');
    if (!item) return;
    menu.hidePopover();
    options.onChoose?.(item);
  });
}
