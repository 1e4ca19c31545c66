// Share links (docs/statistics.md: Sharing statistics): a share as the management API lists it,
// and as it is made (then with its token and URL, shown once).

import { t } from "elysia";
import { MAX_SHARE_LABEL } from "../../stats/shares.ts";
import { NullableTime, Time, closed, ok } from "./common.ts";

const shareFields = {
  id: t.Integer({ minimum: 1 }),
  label: t.String({ maxLength: MAX_SHARE_LABEL, description: "who it was made for; empty when none was given" }),
  createdAt: Time,
  expiresAt: NullableTime,
  lastUsedAt: t.Union([Time, t.Null()], { description: "written at most once a minute per share" }),
};
export const Share = t.Object(shareFields, closed);
export const ShareMade = t.Object(
  {
    ...shareFields,
    token: t.String({ pattern: "^[A-Za-z0-9_-]{43}$", description: "the secret; only its SHA-256 is kept, so it is shown this once" }),
    url: t.String({ description: "the shared statistics page: <base>/stats/shared/<token>" }),
  },
  closed,
);
export const ShareCreated = ok(ShareMade);
export const ShareList = ok(t.Object({ shares: t.Array(Share) }, closed));
export const ShareRevoked = ok(t.Object({ id: t.Integer({ minimum: 1 }), revoked: t.Literal(true) }, closed));
export const ShareRequest = t.Object(
  {
    label: t.Optional(t.Union([t.String({ maxLength: MAX_SHARE_LABEL }), t.Null()])),
    expiresAt: t.Optional(t.Union([t.String({ description: "ISO 8601 with a zone, or YYYY-MM-DD (the end of that UTC day); in the future" }), t.Null()])),
  },
  closed,
);
