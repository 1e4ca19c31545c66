// Native modal dialogs (<dialog> + showModal(): focus stays inside, Escape closes). Buttons marked
// data-close close their dialog; when a dialog closes, focus goes back to where it was opened from,
// or to a fallback when the list was redrawn meanwhile and that control is gone.

/** Opens a dialog; `returnTo` gets focus back on close (default: what had it before). */
export function openDialog(dialog: HTMLDialogElement, returnTo?: () => HTMLElement | null): void {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.addEventListener(
    "close",
    () => {
      // The browser gives focus back to the opener when it closes; this only steps in when that
      // found nothing (the opener's row was redrawn meanwhile), never over a focus set since.
      const active = document.activeElement;
      if (active !== null && active !== document.body && !dialog.contains(active)) return;
      const target = returnTo?.() ?? (opener?.isConnected ? opener : null);
      target?.focus();
    },
    { once: true },
  );
  dialog.showModal();
}

// Every [data-close] button closes the dialog it sits in.
for (const button of document.querySelectorAll<HTMLButtonElement>("dialog [data-close]")) {
  button.addEventListener("click", () => button.closest("dialog")?.close());
}
