// The password queue (src/http/password-queue.ts): a few verify at a time, a few more wait their
// turn in order, anything past that is refused at once, a client has one guess in it at most, and a
// guess that waits its longest is told so rather than left waiting.

import { expect, test } from "bun:test";
import { createPasswordQueue, type QueuePlace } from "../../src/http/password-queue.ts";

const place = (p: QueuePlace | "busy" | "full"): QueuePlace => {
  if (typeof p === "string") throw new Error(`refused: ${p}`);
  return p;
};

test("two verify, two wait, the fifth is refused at once; a client's second guess is busy", async () => {
  const queue = createPasswordQueue({ verifying: 2, waiting: 2, longestWaitMs: 60_000 });
  const a = place(queue.enter("a"));
  const b = place(queue.enter("b"));
  const c = place(queue.enter("c"));
  const d = place(queue.enter("d"));
  expect(queue.size).toEqual({ verifying: 2, waiting: 2 });
  expect(queue.enter("e")).toBe("full");
  expect(queue.enter("a")).toBe("busy");
  expect(queue.enter("c")).toBe("busy");
  expect(await a.turn()).toBe(true);
  expect(await b.turn()).toBe(true);

  // Turns are handed on in the order the guesses came.
  const order: string[] = [];
  void c.turn().then(() => order.push("c"));
  void d.turn().then(() => order.push("d"));
  a.leave();
  a.leave(); // a second leave (a finally after an early return) frees nothing more
  await Bun.sleep(0);
  expect(order).toEqual(["c"]);
  expect(queue.size).toEqual({ verifying: 2, waiting: 1 });
  // a has left: its address may try again, and waits.
  const again = place(queue.enter("a"));
  expect(queue.enter("f")).toBe("full");
  b.leave();
  await Bun.sleep(0);
  expect(order).toEqual(["c", "d"]);
  for (const p of [c, d, again]) p.leave();
  expect(queue.size).toEqual({ verifying: 0, waiting: 0 });
});

test("a guess that leaves while waiting (its token refused) gives its place up and is never started", async () => {
  const queue = createPasswordQueue({ verifying: 1, waiting: 1, longestWaitMs: 60_000 });
  const first = place(queue.enter("a"));
  const waiting = place(queue.enter("b"));
  let started = false;
  void waiting.turn().then(() => (started = true));
  waiting.leave();
  expect(queue.size).toEqual({ verifying: 1, waiting: 0 });
  first.leave();
  await Bun.sleep(0);
  expect(started).toBe(false);
  expect(queue.size).toEqual({ verifying: 0, waiting: 0 });
  expect(typeof queue.enter("b")).toBe("object");
});

test("a guess that waited its longest gets false (the caller answers 429), and its place is freed", async () => {
  const queue = createPasswordQueue({ verifying: 1, waiting: 1, longestWaitMs: 5 });
  const stuck = place(queue.enter("a")); // a verify that does not finish in time
  const late = place(queue.enter("b"));
  expect(await late.turn()).toBe(false);
  expect(queue.size).toEqual({ verifying: 1, waiting: 0 });
  late.leave();
  expect(typeof queue.enter("b")).toBe("object"); // the waiting place and the client are free again
  stuck.leave();
});
