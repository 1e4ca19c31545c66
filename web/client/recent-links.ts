// The home page for a signed-in owner: "Your recent links" (the last 5) under the form. For a
// visitor who is not signed in where creating needs a key, the form asks to sign in up front
// instead of failing on submit.
import { byId, el, formatNumber, lang, t } from "./common.ts";
import { call, type LinkPage, type Who } from "./dashboard/api.ts";
import { displayUrl } from "./display-url.ts";

const RECENT = 5;

/** Asks who is signed in; returns whether creating is open to this visitor. */
export async function checkAccess(): Promise<{ signedIn: boolean; mayCreate: boolean }> {
  const who = await call<Who>("GET", "/api/session");
  if (!who.ok) return { signedIn: false, mayCreate: true }; // let the form try; the API will say
  return { signedIn: who.data.signedIn, mayCreate: who.data.signedIn || who.data.createAccess === "public" };
}

/** Replaces the submit button with the way to sign in, and takes the fields out of use. */
export function askToSignIn(form: HTMLFormElement): void {
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button")) control.disabled = true;
  byId("submit").hidden = true;
  byId("signin-needed").hidden = false;
}

export async function showRecent(): Promise<void> {
  const res = await call<LinkPage>("GET", `/api/links?limit=${RECENT}`);
  if (!res.ok) return;
  const items = res.data.links.map((link) => {
    const li = el("li");
    const id = el("a", "recent-id", `/${link.id}`);
    id.href = `/${lang}/stats/${encodeURIComponent(link.id)}`;
    const dest = el("span", "recent-dest", displayUrl(link.originalUrl));
    dest.title = link.originalUrl;
    const clicks = el("span", "recent-clicks", formatNumber(link.totalClicks));
    clicks.append(el("small", "", t("col_clicks")));
    li.append(id, clicks, dest);
    return li;
  });
  byId("recent-links").replaceChildren(...items);
  byId("recent-links-empty").hidden = items.length > 0;
  byId("recent").hidden = false;
}
