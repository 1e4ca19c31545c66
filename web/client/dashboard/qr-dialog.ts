// A link's QR code in a dialog, drawn by the server (web/client/qr-panel.ts): its options, the
// image's address to copy and its download. A link off the default domain is asked for with ?domain=.
import { byId, t } from "../common.ts";
import { QrPanel } from "../qr-panel.ts";
import type { Link } from "./api.ts";
import { openDialog } from "./dialogs.ts";
import { domainOf } from "./domain-api.ts";

const dialog = byId<HTMLDialogElement>("qr-dialog");
const panel = new QrPanel("qrd");

export function showQr(link: Link, returnTo?: () => HTMLElement | null): void {
  byId("qr-dialog-title").textContent = t("qr_dialog_title", { id: link.id });
  byId("qrd-short").textContent = link.shortUrl;
  panel.show(link.id, domainOf(link), link.shortUrl);
  openDialog(dialog, returnTo);
}
