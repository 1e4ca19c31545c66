// Moving from another shortener (admins): POST /api/imports with the source's fields, then GET
// /api/imports/{id} twice a second for the progress until the result, shown as the command line
// prints it. The fields of other sources are hidden and not sent.
import { byId, formatNumber, t } from "../common.ts";
import { messageFor, problemsOf } from "../form-errors.ts";
import { call } from "./api.ts";
import { openDialog } from "./dialogs.ts";

type Job = { id: string; state: string; progress: { phase: string; done: number; total: number | null; perSecond: number }; lines: string[] };

export class MigrateDialog {
  private readonly dialog = byId<HTMLDialogElement>("migrate-dialog");
  private readonly from = byId<HTMLSelectElement>("migrate-from");
  private readonly error = byId("migrate-error");
  private readonly submit = byId<HTMLButtonElement>("migrate-submit");

  constructor(private readonly onImported: () => Promise<void>) {
    this.from.addEventListener("change", () => this.showFields());
    byId<HTMLFormElement>("migrate-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.run();
    });
  }

  open(): void {
    this.error.hidden = true;
    byId("migrate-progress").hidden = true;
    this.showFields();
    openDialog(this.dialog);
  }

  private showFields(): void {
    for (const field of this.dialog.querySelectorAll<HTMLElement>("[data-for]")) field.hidden = !field.dataset.for!.split(" ").includes(this.from.value);
  }

  private async body(): Promise<Record<string, unknown>> {
    const body: Record<string, unknown> = { from: this.from.value, onConflict: byId<HTMLSelectElement>("migrate-conflict").value };
    for (const field of this.dialog.querySelectorAll<HTMLElement>("[data-for]")) {
      if (field.hidden) continue;
      const input = field.querySelector("input")!;
      if (input.type === "file") {
        const file = input.files?.[0];
        if (file) body.csv = await file.text();
      } else if (input.value.trim() !== "") body[input.name] = input.value.trim();
    }
    body.visits = byId<HTMLInputElement>("migrate-visits").checked;
    body.dryRun = byId<HTMLInputElement>("migrate-dry-run").checked;
    return body;
  }

  private async run(): Promise<void> {
    this.error.hidden = true;
    this.submit.disabled = true;
    try {
      const res = await call<Job>("POST", "/api/imports", { json: await this.body() });
      if (!res.ok) {
        const [problem] = problemsOf(res.body);
        // The source's own words (which option is missing, what it refused) say more than a code's.
        this.error.textContent = problem?.code === "bad_request" && problem.error ? problem.error : messageFor(problem?.code, problem?.error);
        this.error.hidden = false;
        return;
      }
      let job = res.data;
      byId("migrate-progress").hidden = false;
      byId("migrate-lines").hidden = true;
      while (job.state === "running") {
        this.show(job);
        await new Promise((r) => setTimeout(r, 500));
        const next = await call<Job>("GET", `/api/imports/${job.id}`);
        if (!next.ok) {
          // The service restarted (the job is gone) or the session ended: say so, not "running".
          const [problem] = problemsOf(next.body);
          this.error.textContent = messageFor(problem?.code, problem?.error);
          this.error.hidden = false;
          job = { ...job, state: "failed" };
          break;
        }
        job = next.data;
      }
      this.show(job);
      await this.onImported();
    } finally {
      this.submit.disabled = false;
    }
  }

  private show(job: Job): void {
    const bar = byId<HTMLProgressElement>("migrate-bar");
    const p = job.progress;
    if (p.total !== null && p.total > 0) {
      bar.max = p.total;
      bar.value = Math.min(p.done, p.total);
    } else if (job.state === "running") bar.removeAttribute("value");
    else bar.value = bar.max;
    byId("migrate-status").textContent = job.state === "running"
      ? t("migrate_running", { phase: p.phase, done: formatNumber(p.done), rate: formatNumber(p.perSecond) })
      : t(job.state === "done" ? "migrate_done" : job.state === "refused" ? "migrate_refused" : "migrate_stopped");
    const lines = byId("migrate-lines");
    lines.textContent = job.lines.join("\n");
    lines.hidden = job.lines.length === 0;
  }
}
