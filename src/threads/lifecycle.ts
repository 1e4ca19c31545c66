// The messages every worker thread shares with the side that started it (start.ts, serve.ts):
// its init first, close last; it answers ready or failed once, and closed when its work is done.
// A thread's own messages (its protocol.ts) travel beside these and use none of their keys.

/** To the thread: `init` once, first; `close`: finish the work, then answer `closed`. */
export type ToThread<Init> = { init: Init } | { close: true };

/** From the thread: `ready` or `failed` (its own reason) once; `failed` later too if its work cannot go on. */
export type FromThread<Ready, Closed> = { ready: Ready } | { failed: string } | { closed: Closed };
