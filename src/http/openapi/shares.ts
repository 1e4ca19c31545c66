// Share links' routes (docs/statistics.md: Sharing statistics): made, listed and revoked by whoever
// may change the link; a link's statistics read with the token alone.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { errors, id, q, type Operation } from "./operation.ts";

const onDomain = q("domain", "the link's domain (docs/several-domains.md: Several domains); left out: the default domain");
const link = id("the link's id; another key's link is a 404 to a create key");

export const SHARE_ROUTES: Operation[] = [
  {
    method: "post", path: "/api/links/{id}/shares", operationId: "createShare", auth: "required",
    summary: "A share link to the link's statistics: its token and URL are answered this once (only the token's SHA-256 is kept)",
    parameters: [link, onDomain],
    body: { "application/json": S.ShareRequest },
    responses: { 201: { description: "the share, with token and url", json: S.ShareCreated }, ...errors([400, 401, 403, 404, 413, 415, 421, 429, 503], "label_invalid, expires_invalid, expires_past, domain_unknown, bad_request (not JSON, or the link has 50 shares)") },
  },
  {
    method: "get", path: "/api/links/{id}/shares", operationId: "listShares", auth: "required",
    summary: "The link's share links, oldest first (never their tokens)",
    parameters: [link, onDomain],
    responses: { 200: { description: "the shares", json: S.ShareList }, ...errors([400, 401, 403, 404, 421, 429, 503], "domain_unknown") },
  },
  {
    method: "delete", path: "/api/links/{id}/shares/{share}", operationId: "revokeShare", auth: "required",
    summary: "Revokes a share link: its token opens nothing from now on",
    parameters: [link, { name: "share", in: "path", required: true, description: "the share's id", schema: t.String({ pattern: "^[0-9]{1,16}$" }) }, onDomain],
    responses: { 200: { description: "revoked", json: S.ShareRevoked }, ...errors([400, 401, 403, 404, 421, 429, 503], "domain_unknown") },
  },
  {
    method: "get", path: "/api/stats/shared/{token}", operationId: "readSharedStats", auth: "none",
    summary: "A link's statistics through a share link, whatever --stats-access says; a password-protected link's destination, title and variant URLs are left out. A token that opens nothing (unknown, revoked, expired, its link deleted) is answered as GET /api/stats?id=<token>",
    parameters: [
      { name: "token", in: "path", required: true, description: "the share's token", schema: t.String() },
      q("from", "first UTC day, YYYY-MM-DD"),
      q("to", "last UTC day, YYYY-MM-DD"),
      q("bots", "exclude: leave bot clicks out of every figure", t.Union([t.Literal("include"), t.Literal("exclude")])),
    ],
    responses: { 200: { description: "the link and its statistics, as GET /api/stats", json: S.Stats }, ...errors([400, 404, 503], "bad_range or bad_request") },
  },
];
