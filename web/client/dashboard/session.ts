// Signing in and out: the sign-in card when there is no session (a key pasted once becomes an
// HttpOnly cookie the page never sees), who is signed in, sign out, and a session that ends while
// the page is open (the next call answers 401: the sign-in card comes back with a notice).
import { byId, t } from "../common.ts";
import { call, sessionEnded, type Who } from "./api.ts";
import { toast } from "./toast.ts";

export type SignedIn = Who & { signedIn: true; name: string; scope: "admin" | "create" };

/** Where to go after signing in: only this service's home or stats pages (never another site). */
export function safeNext(raw: string | null): string | null {
  return raw !== null && /^\/[a-z]{2}\/(stats\/[A-Za-z0-9_-]{1,30})?$/.test(raw) ? raw : null;
}

export class Session {
  private readonly card = byId("sign-in");
  private readonly form = byId<HTMLFormElement>("sign-in-form");
  private readonly keyInput = byId<HTMLInputElement>("sign-in-key");
  private readonly error = byId("sign-in-error");
  private readonly notice = byId("sign-in-notice");
  private readonly submit = byId<HTMLButtonElement>("sign-in-submit");

  constructor(
    private readonly onSignedIn: (who: SignedIn) => void,
    private readonly onSignedOut: () => void,
  ) {
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.signIn();
    });
    byId("sign-out").addEventListener("click", () => void this.signOut());
    sessionEnded.addEventListener("ended", () => this.showSignIn(t("session_ended")));
  }

  /** Asks who is signed in and shows the dashboard or the sign-in card. */
  async start(): Promise<void> {
    const who = await call<Who>("GET", "/api/session");
    if (who.ok && who.data.signedIn) this.enter(who.data as SignedIn, false);
    else this.showSignIn(who.ok ? "" : t("err_network"), false);
  }

  private enter(who: SignedIn, fromForm: boolean): void {
    this.card.hidden = true;
    byId("signed-in-as").textContent = t("signed_in_as", { name: who.name, scope: t(who.scope === "admin" ? "scope_admin" : "scope_create") });
    this.onSignedIn(who);
    if (fromForm) byId("dashboard-title").focus();
  }

  private showSignIn(notice: string, focus = true): void {
    this.onSignedOut();
    this.card.hidden = false;
    this.notice.textContent = notice;
    this.notice.hidden = notice === "";
    this.error.hidden = true;
    if (focus) byId("sign-in-title").focus();
  }

  private showError(text: string): void {
    this.error.textContent = text;
    this.error.hidden = false;
    this.keyInput.setAttribute("aria-invalid", "true");
    this.keyInput.focus();
  }

  private async signIn(): Promise<void> {
    this.error.hidden = true;
    this.keyInput.removeAttribute("aria-invalid");
    const key = this.keyInput.value.trim();
    if (!key) return this.showError(t("err_key_missing"));
    this.submit.disabled = true;
    try {
      const res = await call<{ name: string; scope: "admin" | "create" }>("POST", "/api/session", { json: { key } });
      if (!res.ok) {
        const code = res.body.code;
        return this.showError(t(code === "auth_rate_limited" ? "err_auth_rate_limited" : code === "network" ? "err_network" : "err_auth_invalid"));
      }
      this.keyInput.value = "";
      const next = safeNext(new URLSearchParams(location.search).get("next"));
      if (next) return location.assign(next);
      const who = await call<Who>("GET", "/api/session");
      if (who.ok && who.data.signedIn) this.enter(who.data as SignedIn, true);
    } finally {
      this.submit.disabled = false;
    }
  }

  private async signOut(): Promise<void> {
    const res = await call("DELETE", "/api/session");
    // Unreachable service: the session still stands, so the page must not pretend otherwise.
    if (!res.ok && res.status === 0) return toast(t("err_network"), "error");
    this.showSignIn(t("signed_out"));
  }
}
