// A link's QR code by URL (docs/sharing.md: QR codes by URL): GET (and HEAD) /{id}/qr.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { QR_MARGIN, QR_SIZE } from "../../qr/options.ts";
import { CODES, id, q, text, type Operation } from "./operation.ts";

const CACHING = {
  ETag: "over the renderer's version, the short URL, the options and the logo",
  "Cache-Control": "public, max-age=86400 with public statistics (private, max-age=86400 on the default domain without --base-url: the URL comes from the request's Host); private, max-age=3600 under --stats-access key",
  "Link-Status": "the link's state: active, scheduled, disabled, expired or limit_reached (a poster is printed ahead: the code is served all the same)",
};
const HEX = "^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";

export const QR_ROUTES: Operation[] = [
  {
    method: "get", path: "/{id}/qr", operationId: "qrCode", auth: "optional",
    summary: "The link's short URL as a QR code, PNG or SVG, for whoever may read its statistics (HEAD: the same headers, nothing drawn); not a click",
    parameters: [
      id("the link's id or alias"),
      q("domain", "the link's domain (docs/several-domains.md: Several domains); left out or empty: the domain the request is sent to"),
      q("format", "png (default) or svg", t.Union([t.Literal("png"), t.Literal("svg")])),
      q("size", `the side in pixels, ${QR_SIZE.min} to ${QR_SIZE.max} (default ${QR_SIZE.default}), rounded down to a whole number of pixels per module`, t.Integer({ minimum: QR_SIZE.min, maximum: QR_SIZE.max })),
      q("margin", `the quiet zone in modules, ${QR_MARGIN.min} to ${QR_MARGIN.max} (default ${QR_MARGIN.default})`, t.Integer({ minimum: QR_MARGIN.min, maximum: QR_MARGIN.max })),
      q("level", "error correction: L, M (default), Q or H; with the logo at least Q", t.Union(["L", "M", "Q", "H"].map((l) => t.Literal(l)))),
      q("fg", "the modules' colour, rrggbb or rgb hex (default 000000); at least 4.5:1 against bg, and darker than it", t.String({ pattern: HEX })),
      q("bg", "the background's colour, rrggbb or rgb hex (default ffffff)", t.String({ pattern: HEX })),
      q("logo", "1: the --qr-logo in the middle (the default when there is one); 0: none", t.Union([t.Literal("1"), t.Literal("0")])),
    ],
    responses: {
      200: { description: "the QR code", content: { "image/png": text, "image/svg+xml": text }, headers: CACHING },
      304: { description: "If-None-Match named the ETag: no body", headers: CACHING },
      400: { description: "qr_invalid (field: the parameter; an unknown parameter, a colour pair under 4.5:1 or light on dark, a size too small for the code), domain_unknown, or auth_header_invalid", json: S.ApiError },
      401: { description: "auth_invalid: a key that is no key (a public link's code needs none)", json: S.ApiError },
      404: { description: `${CODES[404]}: no such link, a deleted one, or under --stats-access key one the caller may not read`, json: S.ApiError },
      410: { description: "link_blocked: the link matches the --blocklist", json: S.ApiError },
      429: { description: "rate_limited: too many QR codes drawn for this address (304s are free)", json: S.ApiError },
      503: { description: CODES[503]!, json: S.ApiError },
    },
  },
];
