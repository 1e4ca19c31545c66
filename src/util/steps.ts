// A script of steps written once for an engine that answers at once (SQLite) and one that answers
// later (PostgreSQL): a generator yields each step's MaybePromise and gets its value back. Over
// SQLite no promise is made, so the script runs inside bun:sqlite's synchronous transaction; over
// PostgreSQL it waits at each step (src/util/maybe.ts says why the two must differ).

import type { MaybePromise } from "./maybe.ts";

/** A script: yields the steps' results (values or promises), returns its outcome. */
export type Steps<T> = Generator<unknown, T, unknown>;

/** The value of one step, inside a script: `const seq = yield* step(s.lock(id))`. */
export function* step<T>(value: MaybePromise<T>): Generator<MaybePromise<T>, T, unknown> {
  return (yield value) as T;
}

/** Runs the script: synchronously while its steps answer at once, in a promise from the first that does not. */
export function runSteps<T>(script: Steps<T>, input?: unknown): MaybePromise<T> {
  let next = script.next(input);
  while (!next.done) {
    if (next.value instanceof Promise) return next.value.then((value) => runSteps(script, value));
    next = script.next(next.value);
  }
  return next.value;
}

/** Runs a script whose steps must all answer at once (inside SQLite's synchronous transaction): a promise is a bug. */
export function runNow<T>(script: Steps<T>): T {
  let next = script.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error("a step answered later inside a synchronous transaction");
    next = script.next(next.value);
  }
  return next.value;
}

/** Runs a script whose steps answer through promises (PostgreSQL), one after the other. */
export async function runLater<T>(script: Steps<T>): Promise<T> {
  let next = script.next();
  while (!next.done) next = script.next(await next.value);
  return next.value;
}
