// The service's own routes: this document, /health and /metrics (docs/operations.md: Monitoring).

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { CODES, RETRY, text, type Operation } from "./operation.ts";

export const SERVICE_ROUTES: Operation[] = [
  {
    method: "get", path: "/api/openapi.json", operationId: "openApi", auth: "none",
    summary: "This document", responses: { 200: { description: "OpenAPI 3.1", json: t.Object({ openapi: t.Literal("3.1.0") }) } },
  },
  {
    method: "get", path: "/health", operationId: "health", auth: "none",
    summary: "For uptime monitors: 200 when the database answers and visits are being written",
    responses: { 200: { description: "ok", json: S.Health }, 503: { description: "degraded", json: S.Health } },
  },
  {
    method: "get", path: "/metrics", operationId: "metrics", auth: "metrics",
    summary: "Prometheus text format: from an address in --metrics-allow (default loopback) or with an admin key",
    responses: {
      200: { description: "metrics", content: { "text/plain; version=0.0.4": text } },
      401: { description: CODES[401]!, json: S.ApiError },
      403: { description: "metrics_forbidden: the address is not allowed and no admin key came", json: S.ApiError },
      421: { description: CODES[421]!, json: S.ApiError },
      429: { description: CODES[429]!, json: S.ApiError, headers: RETRY },
      503: { description: CODES[503]!, json: S.ApiError },
    },
  },
];
