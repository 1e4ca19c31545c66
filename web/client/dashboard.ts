// The owner's dashboard at /<lang>/links: sign in with a key; then the overview with its live
// click count, the list of links with its filters and pages, actions on one link or several,
// create, edit, import and export, and for admins moving from another shortener, webhooks and
// domains, and the ready-made clients. With several domains, the domains known after sign-in set the pickers and filters first.
// Each part is a module of its own under dashboard/; this file only puts them together.
import { byId } from "./common.ts";
import { Actions } from "./dashboard/actions.ts";
import { ImportDialog } from "./dashboard/import.ts";
import { MigrateDialog } from "./dashboard/migrate.ts";
import { LinkForm } from "./dashboard/link-form.ts";
import { LinkList } from "./dashboard/list.ts";
import { LiveCounter } from "./dashboard/live-counter.ts";
import { bindMenu } from "./dashboard/menu.ts";
import { OverviewPanel } from "./dashboard/overview.ts";
import { OrphansCard } from "./dashboard/orphans-card.ts";
import { statsPath } from "./dashboard/rows.ts";
import { Session } from "./dashboard/session.ts";
import { toast } from "./dashboard/toast.ts";
import { WebhooksDialog } from "./dashboard/webhooks.ts";
import { DomainsDialog } from "./dashboard/domains.ts";
import { loadDomains } from "./dashboard/domain-api.ts";
import { t } from "./common.ts";
import { ClientsDialog } from "./dashboard/clients.ts";
import { prefillOnce, takePrefill } from "./dashboard/prefill.ts";

// Before the list reads the address: the bookmarklet's ?shorten= is not a filter.
takePrefill();

const dashboard = byId("dashboard");
const overview = new OverviewPanel(statsPath);
const orphans = new OrphansCard();
const list = new LinkList();
const form = new LinkForm(async (saved) => {
  toast(t(saved.kind === "created" ? "toast_created" : "toast_saved", { id: saved.id }));
  // A new link is on the first page (newest first); an edited one stays where it was.
  const focus = { id: saved.key, control: saved.kind === "created" ? "copy" : "menu" };
  if (saved.kind === "created") await Promise.all([list.first(focus), overview.load()]);
  else await actions.refresh(focus);
});
const actions = new Actions(list, overview, form);
const importer = new ImportDialog(async () => {
  await Promise.all([list.first(null), overview.load()]);
});

bindMenu(byId("export-menu"));
byId("new-link").addEventListener("click", () => form.openCreate());
byId("import-open").addEventListener("click", () => importer.open());
const migrate = new MigrateDialog(async () => {
  await Promise.all([list.first(null), overview.load()]);
});
byId("migrate-open").addEventListener("click", () => migrate.open());
const webhooks = new WebhooksDialog();
byId("webhooks-open").addEventListener("click", () => webhooks.open());
const live = new LiveCounter();

/** The domains read again: the pickers, the filter and the column follow. */
async function domainsKnown(): Promise<void> {
  await loadDomains();
  list.setDomains();
  overview.setDomains();
}
const domains = new DomainsDialog(async () => {
  await domainsKnown();
  await Promise.all([list.first(null), overview.load()]);
});
byId("domains-open").addEventListener("click", () => domains.open());
const clients = new ClientsDialog();
byId("clients-open").addEventListener("click", () => clients.open());

const session = new Session(
  (who) => {
    dashboard.hidden = false;
    list.setAdmin(who.scope === "admin");
    byId("migrate-open").hidden = who.scope !== "admin";
    byId("webhooks-open").hidden = who.scope !== "admin";
    byId("domains-open").hidden = who.scope !== "admin";
    orphans.setAdmin(who.scope === "admin");
    live.start();
    // The bookmarklet's page opens "New link" once the domains (its domain choice) are known.
    const prefill = prefillOnce();
    void domainsKnown().then(() => {
      if (prefill !== null) form.openCreate(prefill);
      return Promise.all([overview.load(), list.load(), orphans.load()]);
    });
  },
  () => {
    dashboard.hidden = true;
    live.stop();
    // Nothing of the previous key's links stays in the page.
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
    list.clear();
    orphans.setAdmin(false);
  },
);
void session.start();
