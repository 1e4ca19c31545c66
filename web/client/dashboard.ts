// The owner's dashboard at /<lang>/links: sign in with a key; then the overview, the list of links
// with its filters and pages, actions on one link or several, create, edit, import and export.
// Each part is a module of its own under dashboard/; this file only puts them together.
import { byId } from "./common.ts";
import { Actions } from "./dashboard/actions.ts";
import { ImportDialog } from "./dashboard/import.ts";
import { MigrateDialog } from "./dashboard/migrate.ts";
import { LinkForm } from "./dashboard/link-form.ts";
import { LinkList } from "./dashboard/list.ts";
import { bindMenu } from "./dashboard/menu.ts";
import { OverviewPanel } from "./dashboard/overview.ts";
import { statsPath } from "./dashboard/rows.ts";
import { Session } from "./dashboard/session.ts";
import { toast } from "./dashboard/toast.ts";
import { t } from "./common.ts";

const dashboard = byId("dashboard");
const overview = new OverviewPanel(statsPath);
const list = new LinkList();
const form = new LinkForm(async (saved) => {
  toast(t(saved.kind === "created" ? "toast_created" : "toast_saved", { id: saved.id }));
  // A new link is on the first page (newest first); an edited one stays where it was.
  const focus = { id: saved.id, control: saved.kind === "created" ? "copy" : "menu" };
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

const session = new Session(
  (who) => {
    dashboard.hidden = false;
    list.setAdmin(who.scope === "admin");
    byId("migrate-open").hidden = who.scope !== "admin";
    void overview.load();
    void list.load();
  },
  () => {
    dashboard.hidden = true;
    // Nothing of the previous key's links stays in the page.
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
    list.clear();
  },
);
void session.start();
