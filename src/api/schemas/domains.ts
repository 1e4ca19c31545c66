// Domains (docs/several-domains.md: Managing domains): a domain with its settings, its changes, and
// the names a creator may make links on. Answered as { success, domains } / { success, domain }
// (the team's contract for #37), not inside `data`.

import { t } from "elysia";
import { ROBOTS_POLICIES } from "../../domains/domain.ts";
import { Count, Time, closed, oneOf } from "./common.ts";

const Robots = t.Union([oneOf(ROBOTS_POLICIES), t.Null()], { description: "links (only links marked crawlable), none or all; null: the instance's way (links)" });
const Redirect = (what: string) => t.Union([t.String(), t.Null()], { description: `an http(s) URL ${what}; null (or ""): the instance's flag` });
const Ids = t.Array(t.Integer({ minimum: 1 }));
const Creators = t.Union([t.Object({ users: Ids, keys: Ids }, closed), t.Null()], {
  description: "null: open to every creator; else only admins and these users (ids) and keys (ids) may make links on it",
});
const settings = {
  https: t.Optional(t.Boolean({ description: "short URLs are https:// (default true) or http://" })),
  rootRedirect: t.Optional(Redirect("that / redirects to")),
  notFoundRedirect: t.Optional(Redirect("that an alias unknown on this domain redirects to")),
  fallbackRedirect: t.Optional(Redirect("that an expired, disabled or used-up link without a fallback of its own redirects to")),
  robots: t.Optional(Robots),
  creators: t.Optional(t.Union([t.Object({ users: t.Optional(Ids), keys: t.Optional(Ids) }, closed), t.Null()])),
};
export const DomainFields = t.Object({ name: t.String({ description: "the host, e.g. s.example.org (no scheme, port or path)" }), ...settings }, closed);
export const DomainChanges = t.Object(
  {
    name: t.Optional(t.String({ description: "a new name: its links' short URLs move with it" })),
    isDefault: t.Optional(t.Literal(true, { description: "make it the default (refused with --base-url: the default is its host)" })),
    ...settings,
  },
  closed,
);
export const Domain = t.Object(
  {
    name: t.String(), isDefault: t.Boolean(), https: t.Boolean(), rootRedirect: t.Union([t.String(), t.Null()]), notFoundRedirect: t.Union([t.String(), t.Null()]),
    fallbackRedirect: t.Union([t.String(), t.Null()]), robots: Robots, creators: Creators,
    createdAt: t.Union([Time, t.Null()], { description: "null for the default named only by --base-url" }),
    links: t.Union([Count, t.Null()], { description: "how many links it holds; null for the default named only by --base-url (not counted)" }),
  },
  closed,
);
export const DomainList = t.Object({ success: t.Literal(true), domains: t.Array(Domain) }, closed);
export const DomainsForCreate = t.Object(
  { success: t.Literal(true), domains: t.Array(t.Object({ name: t.Union([t.String(), t.Null()], { description: "null: the default of an instance that knows no name" }), isDefault: t.Boolean() }, closed)) },
  closed,
);
export const DomainResponse = t.Object({ success: t.Literal(true), domain: Domain }, closed);
export const DomainRemoved = t.Object({ success: t.Literal(true), name: t.String(), deleted: t.Literal(true), linksMoved: Count }, closed);
export const CertificateAnswer = t.Object({ success: t.Literal(true), domain: t.String() }, closed);
