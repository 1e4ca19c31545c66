// What every area's shapes share: times, counts, the success envelope, errors (docs/api.md: Errors), /health.

import { t, type TSchema } from "elysia";
import type { TLiteral, TUnion } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_FIELDS } from "../../errors.ts";

export const closed = { additionalProperties: false } as const;
type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K] & string> };
/** One of these strings; typed as their union (Static gives "active" | "disabled" | …, not string). */
export const oneOf = <const V extends readonly string[]>(values: V): TUnion<Literals<V>> => t.Union(values.map((v) => t.Literal(v))) as never;

export const ISO_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";
export const Time = t.String({ pattern: ISO_TIME, description: "ISO 8601, UTC, with milliseconds" });
export const NullableTime = t.Union([Time, t.Null()]);
export const Day = t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "a UTC day, YYYY-MM-DD" });
export const Count = t.Integer({ minimum: 0 });
export const Tag = t.String({ pattern: "^[A-Za-z0-9_-]{1,30}$" });

/** `{success: true, data}` around a response's payload. */
export const ok = <D extends TSchema>(data: D) => t.Object({ success: t.Literal(true), data }, closed);


export const FieldProblem = t.Object({ code: oneOf(ERROR_CODES), field: oneOf(ERROR_FIELDS), error: t.String() }, closed);

export const errorFields = {
  success: t.Literal(false),
  error: t.String({ description: "for people; may change between releases" }),
  code: oneOf(ERROR_CODES),
  field: t.Optional(oneOf(ERROR_FIELDS)),
  errors: t.Optional(t.Array(FieldProblem, { description: "every field problem of a 400, the first one also as error/code/field" })),
};
export const ApiError = t.Object(errorFields, { ...closed, description: "Every failure of /api (docs/api.md: Errors)" });

export const Health = t.Object(
  {
    status: oneOf(["ok", "degraded"]),
    version: t.String(),
    db: t.String({ description: "ok, or what is wrong" }),
    visits: t.Object({ queued: Count, written: Count, dropped: Count, discarded: Count }, closed),
  },
  closed,
);
