// The "Clients" dialog: the ShareX uploader offered as a file and the bookmarklet as a link to drag,
// both for this page's own origin (the address the person reaches the service at, which is where
// their tools must send too, whatever a proxy in front says) (docs/web-ui.md: Clients).
import { byId, lang, t } from "../common.ts";
import { bookmarklet, sharexFileName, sharexUploader } from "./client-files.ts";
import { openDialog } from "./dialogs.ts";
import { toast } from "./toast.ts";

export class ClientsDialog {
  private readonly dialog = byId<HTMLDialogElement>("clients-dialog");
  private readonly sharex = byId<HTMLAnchorElement>("clients-sharex");
  private readonly bookmarklet = byId<HTMLAnchorElement>("clients-bookmarklet");
  private fileUrl: string | null = null;

  constructor() {
    // Clicked here it would only reopen this page (and the CSP refuses javascript: links anyway).
    this.bookmarklet.addEventListener("click", (e) => {
      e.preventDefault();
      toast(t("clients_bookmarklet_drag"));
    });
  }

  open(): void {
    const origin = location.origin;
    if (this.fileUrl === null) this.fileUrl = URL.createObjectURL(new Blob([sharexUploader(origin)], { type: "application/json" }));
    this.sharex.href = this.fileUrl;
    this.sharex.download = sharexFileName(origin);
    this.bookmarklet.href = bookmarklet(origin, lang);
    openDialog(this.dialog);
  }
}
