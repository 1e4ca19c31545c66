// Signing in and out: the sign-in card when there is no session (the identity provider's button,
// and a key pasted once becomes an HttpOnly cookie the page never sees), who is signed in, sign
// out (and the provider's own sign-out, offered), and a session that ends while the page is open
// (the next call answers 401: the sign-in card comes back with a notice). A person the auth proxy
// signed in has no sign-out here: the proxy decides.
import { byId, t } from "../common.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { call, sessionEnded, type Who } from "./api.ts";
import { toast } from "./toast.ts";

export type SignedIn = Who & { signedIn: true; name: string; scope: "admin" | "create" };
type SignedOut = { signedOut: true; endSessionUrl?: string };

/** Where to go after signing in: only this service's home or stats pages (never another site). */
export function safeNext(raw: string | null): string | null {
  return raw !== null && /^\/[a-z]{2}\/(stats\/[A-Za-z0-9_-]{1,64})?$/.test(raw) ? raw : null;
}

// Why GET /api/session may be refused, in the person's words; any other failure is a network error.
const REFUSED: Record<string, MessageKey> = {
  auth_header_invalid: "signin_failed_header_invalid",
  user_disabled: "signin_failed_user_disabled",
  group_not_allowed: "signin_failed_group_not_allowed",
};

export class Session {
  private readonly card = byId("sign-in");
  private readonly form = byId<HTMLFormElement>("sign-in-form");
  private readonly keyInput = byId<HTMLInputElement>("sign-in-key");
  private readonly error = byId("sign-in-error");
  private readonly notice = byId("sign-in-notice");
  private readonly submit = byId<HTMLButtonElement>("sign-in-submit");
  /** the provider's name, for its sign-out link */
  private provider: string | null = null;

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
    if (who.ok) this.offer(who.data.signIn);
    if (who.ok && who.data.signedIn) this.enter(who.data as SignedIn, false);
    else this.showSignIn(who.ok ? "" : t(REFUSED[who.body.code ?? ""] ?? "err_network"), false);
  }

  /** The ways in this service offers: the provider's button, the key form, or both. */
  private offer(ways: Who["signIn"]): void {
    this.provider = ways.oidc?.name ?? null;
    byId("sign-in-oidc").hidden = ways.oidc === null;
    byId("sign-in-or").hidden = !ways.key;
    this.form.hidden = !ways.key;
    byId("sign-in-lead-key").hidden = !ways.key || ways.oidc !== null;
    byId("sign-in-lead-oidc").hidden = ways.oidc === null;
    if (ways.oidc === null) return;
    byId("sign-in-oidc-label").textContent = t("signin_with", { name: ways.oidc.name });
    // Back here after the provider, or where the sign-in was asked for (a private stats page).
    const next = safeNext(new URLSearchParams(location.search).get("next")) ?? location.pathname;
    byId<HTMLAnchorElement>("sign-in-oidc-button").href = `${ways.oidc.url}?next=${encodeURIComponent(next)}`;
  }

  private enter(who: SignedIn, fromForm: boolean): void {
    this.card.hidden = true;
    const name = who.user?.name ?? who.name;
    byId("signed-in-as").textContent = t("signed_in_as", { name, scope: t(who.scope === "admin" ? "scope_admin" : "scope_create") });
    // The proxy signed them in, and only it can sign them out.
    byId("sign-out").hidden = who.via === "header";
    byId("sign-out-provider").hidden = true;
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
    const res = await call<SignedOut>("DELETE", "/api/session");
    // Unreachable service: the session still stands, so the page must not pretend otherwise.
    if (!res.ok && res.status === 0) return toast(t("err_network"), "error");
    this.showSignIn(t("signed_out"));
    // Signed out here; the provider would sign them straight back in, so offer its sign-out too.
    const end = res.ok ? res.data.endSessionUrl : undefined;
    byId("sign-out-provider").hidden = end === undefined;
    if (end !== undefined) {
      const link = byId<HTMLAnchorElement>("sign-out-provider-link");
      link.href = end;
      link.textContent = t("signout_provider", { name: this.provider ?? "" });
    }
  }
}
