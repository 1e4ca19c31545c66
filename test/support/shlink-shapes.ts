// Shapes of Shlink's answers that the typecheck proves equal to the types of Shlink's own SDK
// (@shlinkio/shlink-js-sdk/api-contract, SDK src/api-contract/types.ts), and a check of a real
// answer against one. `ShapeOf<T>` turns an SDK type into the JSON kinds of every field it
// declares, optional ones included (the web component reads hasRedirectRules, visitedUrl, …);
// a shape written `satisfies ShapeOf<T>` must then name every field of T with its kind, and no
// other: when the SDK's type changes, the typecheck fails before any answer is looked at.

type Kind = "string" | "number" | "boolean";
type ScalarKind<T> = [T] extends [string] ? "string" : [T] extends [number] ? "number" : [T] extends [boolean] ? "boolean" : never;
type NonNull<T> = Exclude<T, null | undefined>;

/** One field's shape: a kind ("string", "string|null"), an object's shapes, or [element shape] (a list), `{nullable: shape}` for an object or null. */
export type ShapeOfValue<T> = null extends T
  ? NonNull<T> extends object ? { nullable: ShapeOfValue<NonNull<T>> } : `${ScalarKind<NonNull<T>>}|null`
  : NonNull<T> extends readonly (infer E)[] ? [ShapeOfValue<E>]
  : NonNull<T> extends object ? ShapeOf<NonNull<T>>
  : ScalarKind<NonNull<T>>;

export type ShapeOf<T> = { [K in keyof T]-?: ShapeOfValue<T[K]> };

export type Shape = string | readonly [Shape] | { nullable: Shape } | { [field: string]: Shape };

/** Where `value` differs from `shape` ("data[0].meta.validSince: string|null expected, got 3"); empty when it conforms. Extra fields are allowed. */
export function mismatches(value: unknown, shape: Shape, at = "answer"): string[] {
  if (typeof shape === "string") {
    const [kind, nullable] = shape.split("|") as [Kind, string | undefined];
    if (value === null && nullable === "null") return [];
    return typeof value === kind ? [] : [`${at}: ${shape} expected, got ${JSON.stringify(value)}`];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${at}: a list expected, got ${JSON.stringify(value)}`];
    return value.flatMap((item, i) => mismatches(item, shape[0] as Shape, `${at}[${i}]`));
  }
  if ("nullable" in shape && Object.keys(shape).length === 1) {
    return value === null ? [] : mismatches(value, shape.nullable as Shape, at);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: an object expected, got ${JSON.stringify(value)}`];
  const fields = value as Record<string, unknown>;
  return Object.entries(shape as Record<string, Shape>).flatMap(([field, inner]) =>
    field in fields ? mismatches(fields[field], inner, `${at}.${field}`) : [`${at}.${field}: missing`],
  );
}
