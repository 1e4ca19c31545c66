// A value now, or later: what a storage part answers. SQLite answers at once (its calls are
// synchronous, and the click path keeps them so); PostgreSQL answers through a promise.
export type MaybePromise<T> = T | Promise<T>;

/** A function as an engine that answers at once implements it: no promise in its result. */
export type SyncFunction<F> = F extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> : F;

/** A storage part as an engine that answers at once (SQLite) implements it: the same methods, no promises. */
export type Synchronous<T> = { [K in keyof T]: SyncFunction<T[K]> };

/**
 * f of the value: now when the value is here, once it arrives when it is a promise. A rule written
 * once with this stays synchronous over SQLite (no promise is made) and waits over PostgreSQL.
 */
export function then<T, U>(value: MaybePromise<T>, f: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
