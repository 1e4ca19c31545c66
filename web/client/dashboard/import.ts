// Importing a CSV (or JSON) file: the API creates each row like a create and reports every row;
// the dialog shows how many were created and failed, and a row-by-row table (failures first,
// translated by their code).
import { byId, el, formatNumber, t } from "../common.ts";
import { messageFor, problemsOf } from "../form-errors.ts";
import { call, type ImportOutcome } from "./api.ts";
import { openDialog } from "./dialogs.ts";
import { statsPath } from "./rows.ts";

export class ImportDialog {
  private readonly dialog = byId<HTMLDialogElement>("import-dialog");
  private readonly file = byId<HTMLInputElement>("import-file");
  private readonly error = byId("import-error");
  private readonly result = byId("import-result");
  private readonly submit = byId<HTMLButtonElement>("import-submit");

  constructor(private readonly onImported: (outcome: ImportOutcome) => Promise<void>) {
    byId<HTMLFormElement>("import-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.run();
    });
  }

  open(): void {
    this.file.value = "";
    this.showError("");
    this.result.hidden = true;
    openDialog(this.dialog);
  }

  private showError(text: string): void {
    this.error.textContent = text;
    this.error.hidden = text === "";
    if (text) this.file.setAttribute("aria-invalid", "true");
    else this.file.removeAttribute("aria-invalid");
  }

  private async run(): Promise<void> {
    this.showError("");
    const file = this.file.files?.[0];
    if (!file) {
      this.showError(t("err_import_no_file"));
      this.file.focus();
      return;
    }
    const json = /\.json$/i.test(file.name) || file.type === "application/json";
    this.submit.disabled = true;
    const label = [...this.submit.childNodes];
    this.submit.textContent = t("importing");
    try {
      const res = await call<ImportOutcome>("POST", "/api/links/import", { text: await file.text(), type: json ? "application/json" : "text/csv" });
      if (!res.ok) {
        const [problem] = problemsOf(res.body);
        this.showError(messageFor(problem?.code, problem?.error));
        this.file.focus();
        return;
      }
      this.show(res.data);
      await this.onImported(res.data);
    } finally {
      this.submit.disabled = false;
      this.submit.replaceChildren(...label);
    }
  }

  private show(outcome: ImportOutcome): void {
    const summary = byId("import-summary");
    summary.textContent = t("import_summary", { created: formatNumber(outcome.created.length), failed: formatNumber(outcome.failed.length) });
    const failed = outcome.failed.map((f) => {
      const tr = el("tr", "import-failed");
      const result = el("td");
      result.append(el("span", "import-error", messageFor(f.code, f.error)));
      tr.append(el("td", "num", formatNumber(f.row)), result);
      return { row: f.row, tr };
    });
    const created = outcome.created.map((c) => {
      const tr = el("tr");
      const result = el("td");
      const a = el("a", "", t("import_created", { id: c.id }));
      // A row made on another domain: its statistics by its domain (the import's `domain` column).
      const domain = (c as { domain?: string | null }).domain;
      a.href = statsPath(c.id, domain || null);
      result.append(a);
      tr.append(el("td", "num", formatNumber(c.row)), result);
      return { row: c.row, tr };
    });
    byId("import-rows").replaceChildren(...failed.sort((a, b) => a.row - b.row).map((r) => r.tr), ...created.sort((a, b) => a.row - b.row).map((r) => r.tr));
    this.result.hidden = false;
    summary.focus();
  }
}
