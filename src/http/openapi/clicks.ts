// A click and the password page's form (docs/api.md: Other routes; the click path itself: src/http/click-door.ts).

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { id, text, type Operation } from "./operation.ts";

export const CLICK_ROUTES: Operation[] = [
  {
    method: "get", path: "/{id}", operationId: "click", auth: "none",
    summary: "A click: 302 (or the link's redirectType) to the destination its rules choose, with the click's query merged in (HEAD: the same, not counted)",
    parameters: [
      id("the link's id or alias"),
      { name: "X-Link-Password", in: "header", description: "a password-protected link's password, for scripts (browsers get a page with a form)", schema: t.String() },
    ],
    responses: {
      200: { description: "a page, not a redirect: for a link with a preview card, asked by a listed link-preview agent (docs/sharing.md: Preview cards): the card as an HTML page of Open Graph and X card tags, never the destination (counted as a preview, not a click; HEAD: the headers only); or a destination in an app (--allow-schemes) other than mailto, tel, sms and intent: a page in the visitor's language with a link into the app and, when the link has an http(s) fallbackUrl, one to it (counted; docs/sharing.md)", content: { "text/html": text } },
      301: { description: "the link's redirectType 301", headers: { Location: "the destination" } },
      302: { description: "to the destination (Location; Cache-Control: no-store); also to a gone link's fallbackUrl or its domain's fallback, and the domain's not-found redirect or --not-found-redirect", headers: { Location: "the destination" } },
      307: { description: "the link's redirectType 307", headers: { Location: "the destination" } },
      308: { description: "the link's redirectType 308", headers: { Location: "the destination" } },
      401: { description: "password-protected: a page with the password form (HEAD and link previews get it too, unless the link has a preview card)", content: { "text/html": text } },
      403: { description: "password_wrong: X-Link-Password holds a wrong password", json: S.ApiError },
      404: { description: "no such link, or one not valid yet (an HTML page)", content: { "text/html": text } },
      410: { description: "disabled, expired, blocked or deleted (an HTML page in the visitor's language; not counted)", content: { "text/html": text } },
      421: { description: "with domains configured, the Host (or a trusted proxy's X-Forwarded-Host) is none of them: names no link (docs/several-domains.md)", content: { "text/plain": text } },
      423: { description: "password_locked: the stored password hash is outside the bounds this version verifies; locked until the owner sets a new password (JSON with X-Link-Password, else an HTML page; not counted)", content: { "application/json": S.ApiError, "text/html": text } },
      429: { description: "rate_limited: too many wrong passwords from this address or for this link, a guess from this address already being checked, or the password queue full", json: S.ApiError },
      503: { description: "the link is not in memory and the database cannot be reached (an HTML page; Retry-After)", content: { "text/html": text }, headers: { "Retry-After": "seconds" } },
    },
  },
  {
    method: "post", path: "/{id}", operationId: "unlock", auth: "none",
    summary: "The password page's form: the right password is a click, answered 303 to the destination",
    parameters: [id("the link's id or alias")],
    body: { "application/x-www-form-urlencoded": t.Object({ password: t.String() }), "multipart/form-data": t.Object({ password: t.String() }) },
    responses: {
      200: { description: "the right password for a link into an app (--allow-schemes): the page that opens it (counted)", content: { "text/html": text } },
      303: { description: "to the destination (counted); or back to the link when it is not password-protected", headers: { Location: "the destination" } },
      401: { description: "no password in the form: the page again", content: { "text/html": text } },
      403: { description: "a wrong password: the page again, saying so", content: { "text/html": text } },
      404: { description: "no such link (an HTML page)", content: { "text/html": text } },
      423: { description: "the link's stored password hash is outside the bounds this version verifies: a page saying it is locked", content: { "text/html": text } },
      429: { description: "too many wrong passwords, a guess from this address already being checked, or the password queue full: the page, with Retry-After", content: { "text/html": text } },
      503: { description: "the link is not in memory and the database cannot be reached (an HTML page; Retry-After)", content: { "text/html": text }, headers: { "Retry-After": "seconds" } },
    },
  },
];
