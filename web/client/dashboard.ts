// The owner's dashboard (first cut): sign in with a key, see who is signed in, sign out.
import { byId, t } from "./common.ts";

type Who = { success: true; data: { signedIn: boolean; name?: string; scope?: string } };

const signIn = byId("sign-in");
const dashboard = byId("dashboard");
const form = byId<HTMLFormElement>("sign-in-form");
const keyInput = byId<HTMLInputElement>("sign-in-key");
const error = byId("sign-in-error");

async function refresh(): Promise<void> {
  const who = (await (await fetch("/api/session")).json()) as Who;
  signIn.hidden = who.data.signedIn;
  dashboard.hidden = !who.data.signedIn;
  if (who.data.signedIn) byId("signed-in-as").textContent = t("signed_in_as", { name: who.data.name ?? "", scope: who.data.scope ?? "" });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const res = await fetch("/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: keyInput.value }) });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    error.textContent = t(body.code === "auth_rate_limited" ? "err_auth_rate_limited" : "err_auth_invalid");
    error.hidden = false;
    keyInput.focus();
    return;
  }
  keyInput.value = "";
  await refresh();
});

byId("sign-out").addEventListener("click", async () => {
  await fetch("/api/session", { method: "DELETE" });
  await refresh();
});

void refresh();
