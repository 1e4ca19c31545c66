// The password checks of this process, bounded (docs/security.md: Security). One argon2id verify takes a
// link's hash's memory (64 MiB at most: src/links/password-hash.ts) and a tenth to a third of a
// second of a core, on Bun's worker threads. Unbounded, guesses sent at once would all be hashed
// together: memory without limit, and the ones behind waiting until Bun's idle timeout closed
// their connection with no answer. So a few verify at a time, a few more wait their turn, and
// anything past that is refused at once (429); each client address has at most one guess in the
// queue, so parallel guesses from one address never run together.

/** Verifies at a time: 128 MiB of argon2 memory at most, and a core left for clicks on a small machine. */
export const VERIFYING_AT_ONCE = 2;
/** Guesses that may wait for a verify; the last of them starts within four verifies' time. */
export const WAITING_AT_MOST = 8;
/**
 * A guess that has waited this long without its turn is answered 429 instead: an answer well
 * before Bun's idle timeout (10 s) however slow the machine's verifies are.
 */
export const LONGEST_WAIT_MS = 5_000;
/** What a refused guess is told to wait: the queue moves on within a second or so. */
export const QUEUE_RETRY_SECONDS = 1;

/** A guess's place in the queue, held until `leave` (a finally), which hands its turn on. */
export type QueuePlace = {
  /** Resolves true once it is this guess's turn to verify, false if it waited LONGEST_WAIT_MS without one. */
  turn(): Promise<boolean>;
  leave(): void;
};

export type PasswordQueue = {
  /** A place for this client's guess; "busy": the client already has one; "full": the queue is. */
  enter(client: string): QueuePlace | "busy" | "full";
  /** Guesses verifying and waiting now (tests, metrics). */
  readonly size: { verifying: number; waiting: number };
};

type Limits = { verifying: number; waiting: number; longestWaitMs: number };

export function createPasswordQueue(limits: Limits = { verifying: VERIFYING_AT_ONCE, waiting: WAITING_AT_MOST, longestWaitMs: LONGEST_WAIT_MS }): PasswordQueue {
  let verifying = 0;
  type Waiter = { start: (turn: boolean) => void; timer: ReturnType<typeof setTimeout> };
  const waiting: Waiter[] = [];
  const clients = new Set<string>();

  /** The next waiter's turn, when a verify has finished. */
  const handOn = () => {
    const next = waiting.shift();
    if (next === undefined) return;
    clearTimeout(next.timer);
    verifying++;
    next.start(true);
  };

  return {
    get size() {
      return { verifying, waiting: waiting.length };
    },
    enter(client) {
      if (clients.has(client)) return "busy";
      if (verifying >= limits.verifying && waiting.length >= limits.waiting) return "full";
      clients.add(client);
      let state: "verifying" | "waiting" | "late" | "left";
      let turn: Promise<boolean>;
      let waiter: Waiter | undefined;
      if (verifying < limits.verifying) {
        verifying++;
        state = "verifying";
        turn = Promise.resolve(true);
      } else {
        state = "waiting";
        turn = new Promise<boolean>((resolve) => {
          const start = (go: boolean) => {
            state = go ? "verifying" : "late";
            resolve(go);
          };
          const timer = setTimeout(() => {
            waiting.splice(waiting.indexOf(waiter!), 1);
            start(false);
          }, limits.longestWaitMs);
          timer.unref?.();
          waiter = { start, timer };
        });
        waiting.push(waiter!);
      }
      return {
        turn: () => turn,
        leave() {
          if (state === "left") return;
          if (state === "verifying") {
            verifying--;
            handOn();
          } else if (state === "waiting") {
            clearTimeout(waiter!.timer);
            waiting.splice(waiting.indexOf(waiter!), 1);
          }
          state = "left";
          clients.delete(client);
        },
      };
    },
  };
}
