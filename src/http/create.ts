// POST /api/create: who is asking, read the form, create the link (src/ops/links/create.ts),
// answer with its two URLs.

import type { Config } from "../config.ts";
import { pickLanguage } from "../lang.ts";
import { CREATE_SPELLINGS, createNames, type CreateField } from "../links/field-names.ts";
import { admitCreate, create } from "../ops/links/create.ts";
import type { LinkOpsDeps } from "../ops/links/deps.ts";
import { authenticate, unauthenticated, type AuthDeps } from "./auth.ts";
import { readFormFields, type FieldKind } from "./form-body.ts";
import { ownHostsOf } from "./destination-rules.ts";
import { problemResponse } from "./problems.ts";
import { publicBase, requestClient, type PeerServer } from "./request-origin.ts";
import { apiError, badHost, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";
import { linkPlace, warnings } from "./link-json.ts";

export type CreateDeps = AuthDeps & Pick<LinkOpsDeps, "links" | "directory" | "limiter" | "blocklist"> & { config: Config };

const KINDS: Record<CreateField, FieldKind> = {
  url: "text", custom_url: "text", expires_at: "text", max_clicks: "count", tags: "list",
  rules: "json", variants: "json", password: "text", redirect_type: "count", valid_from: "text", fallback_url: "text", crawlable: "flag", domain: "text", title: "text",
  card_title: "text", card_description: "text", card_image: "text", ios_url: "text", android_url: "text",
};
/** Every field under both its names; which names a body may use is createNames's rule (docs/api.md: Create a short link). */
export const CREATE_FIELDS: Record<string, FieldKind> = Object.fromEntries(
  (Object.keys(KINDS) as CreateField[]).flatMap((f) => [[f, KINDS[f]], [CREATE_SPELLINGS[f], KINDS[f]]]),
);

export async function handleCreate(request: Request, server: PeerServer, deps: CreateDeps): Promise<Response> {
  const auth = await authenticate(request, server, deps);
  if (!auth.ok) return auth.response;
  const admitted = admitCreate(auth.principal, requestClient(server, request, deps.trusted), deps);
  if (!admitted.ok) return admitted.problem.code === "auth_required" ? unauthenticated(auth) : problemResponse(admitted.problem);
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return badHost();
  const body = await readFormFields(request, CREATE_FIELDS);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const spelled = createNames(body.given, body.json);
  if (!spelled.ok) return apiError(400, "bad_request", spelled.error);
  const input = { fields: body.fields, names: spelled.names, ownHosts: ownHostsOf(deps, base, request, server) };
  const created = await create(auth.principal, input, deps).catch((err: unknown) => storageUnavailable(err, deps.log, "creating a link"));
  if (created instanceof Response) return created;
  if (!created.ok) return problemResponse(created.problem);
  const { id } = created.value;
  const lang = pickLanguage(request.headers.get("accept-language"));
  // The spec's two URLs, on the link's own domain (docs/api.md: Links on several domains).
  const place = linkPlace(created.value.domain, base, deps.directory);
  return json(201, { success: true, data: { shortUrl: `${place.base}/${id}`, statsUrl: `${place.base}/${lang}/stats/${id}`, ...warnings(created.value) } });
}
