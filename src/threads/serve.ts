// The thread's side of start.ts (docs/architecture.md: Threads): an entry file hands its start,
// its own messages and its close to serveThread, which answers ready, failed and closed.

import type { FromThread, ToThread } from "./lifecycle.ts";

declare const self: Worker;

export type ThreadWork<Init, Ready, Closed, In> = {
  /** Sets the thread up; its value is the ready answer, a throw the failed one (the error's message). */
  start(init: Init): Ready | Promise<Ready>;
  /** A message of the thread's own protocol, after start. */
  message?(msg: In): void;
  /** Finishes the work (within the client's bound: start.ts); its value is the closed answer. */
  close(): Closed | Promise<Closed>;
};

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Serves the lifecycle on this thread; returns how the thread posts its own messages. */
export function serveThread<Init, Ready, Closed, In = never, Out = never>(work: ThreadWork<Init, Ready, Closed, In>): (msg: Out) => void {
  const answer = (msg: FromThread<Ready, Closed>) => self.postMessage(msg);
  const start = async (init: Init) => {
    try {
      answer({ ready: (await work.start(init)) as Ready });
    } catch (err) {
      answer({ failed: reason(err) });
    }
  };
  self.onmessage = (event: MessageEvent<ToThread<Init> | In>) => {
    const msg = event.data as ToThread<Init>;
    if ("init" in msg) void start(msg.init);
    else if ("close" in msg) void Promise.resolve(work.close()).then((closed) => answer({ closed: closed as Closed }));
    else work.message?.(event.data as In);
  };
  return (msg) => self.postMessage(msg);
}
