// Imports from other shorteners (docs/importing.md: Moving from another shortener).

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { ADMIN_ONLY, errors, id, type Operation } from "./operation.ts";

export const IMPORT_ROUTES: Operation[] = [
  {
    method: "post", path: "/api/imports", operationId: "startImport", auth: "required",
    summary: "Start an import from Shlink, YOURLS, Kutt, Bitly or a CSV (admins; one at a time; as `shortener import`)",
    body: { "application/json": S.ImportRequest },
    responses: {
      202: { description: "started: poll GET /api/imports/{id}", json: S.ImportJob },
      ...errors([400, 401, 413, 415, 421, 429], "bad_request: an unknown source, or an option it needs is missing or wrong; url_private: url or sourceDb is a special-purpose address (loopback, private, link-local...) without --import-allow-private"),
      403: ADMIN_ONLY,
      409: { description: "import_running: another import is under way", json: S.ApiError },
    },
  },
  {
    method: "get", path: "/api/imports/{id}", operationId: "getImport", auth: "required",
    summary: "How far an import is; at the end its result (the last ten are kept until a restart)",
    parameters: [{ name: "id", in: "path", required: true, description: "the import's id", schema: t.String() }],
    responses: {
      200: { description: "the import", json: S.ImportJob },
      ...errors([401, 404, 421, 429]),
      403: ADMIN_ONLY,
    },
  },
];
