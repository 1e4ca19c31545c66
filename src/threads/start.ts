// The one way a worker thread is started (docs/architecture.md: Threads): the recorder, the reader,
// the delivery and the import thread all go through startThread, so that each has a ready
// handshake with a bound, a failed state the service hears of, and a close with a bound.
//
// Where the entry file is: in the compiled binary the thread entries are embedded
// (scripts/lib/compile.ts lists them), named by their path below the entries' common folder, src/;
// a URL from import.meta.url would point at the source file on the build machine instead. From
// source, that URL (src/<file>, relative to this folder) is right.

import type { Logger } from "../log.ts";
import type { FromThread, ToThread } from "./lifecycle.ts";

/** How long any thread may take from its start to ready: opening a database and loading --geoip-db take well under a second. */
export const READY_WITHIN_MS = 30_000;

export type ThreadSpec<Init, Ready, Out> = {
  /** "recorder": errors and log lines name the thread by it */
  name: string;
  /** its entry file below src/ ("threads/recorder/entry.ts"); a URL is taken as it is (tests) */
  entry: string | URL;
  init: Init;
  /** the longest it may take to answer ready (READY_WITHIN_MS) */
  readyWithinMs?: number;
  /** the longest close() waits for it to finish its work before it is terminated */
  closeWithinMs: number;
  /** the thread's own messages: everything but ready, failed and closed */
  onMessage?: (msg: Out) => void;
  /** it died once running (already terminated and logged): its client refuses what it would have done */
  onFailed?: (reason: string) => void;
  log: Logger;
};

export type WorkerThread<In, Closed> = {
  /** A message of the thread's own protocol; dropped once the thread is gone. */
  post(msg: In): void;
  /** Why the thread died; null while it runs or after an orderly close. */
  failure(): string | null;
  /**
   * Asks the thread to finish its work and resolves with its `closed` answer; null when it had
   * died, or did not finish within closeWithinMs and was terminated.
   */
  close(): Promise<Closed | null>;
};

/** The entry point of a thread, `file` being its path below src/ (e.g. "threads/recorder/entry.ts"). */
export function threadEntry(file: string): string {
  return Bun.main.startsWith("/$bunfs/") ? `./${file}` : new URL(`../${file}`, import.meta.url).href;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** Starts the thread and resolves once it is ready; rejects with its own reason when it fails to start. */
export function startThread<Init, Ready, Closed, In = never, Out = never>(
  spec: ThreadSpec<Init, Ready, Out>,
): Promise<{ thread: WorkerThread<In, Closed>; ready: Ready }> {
  const worker = new Worker(typeof spec.entry === "string" ? threadEntry(spec.entry) : spec.entry.href);
  const { name, log } = spec;
  let state: "starting" | "running" | "closing" | "over" = "starting";
  let failure: string | null = null;
  let closing: Promise<Closed | null> | null = null;
  let closed: (value: Closed | null) => void = () => {};
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  const over = () => {
    state = "over";
    clearTimeout(readyTimer);
    worker.terminate();
  };
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      if (state === "over") return;
      const starting = state === "starting";
      over();
      failure = reason;
      if (starting) return reject(new Error(reason));
      log.error(`the ${name} thread stopped`, { error: reason });
      closed(null);
      spec.onFailed?.(reason);
    };
    const thread: WorkerThread<In, Closed> = {
      post: (msg) => {
        if (state !== "over") worker.postMessage(msg);
      },
      failure: () => failure,
      close: () => (closing ??= closeThread()),
    };
    const closeThread = () => {
      if (state === "over") return Promise.resolve(null);
      state = "closing";
      return new Promise<Closed | null>((done) => {
        const bound = setTimeout(() => {
          log.error(`the ${name} thread did not finish within ${seconds(spec.closeWithinMs)}; stopped it`);
          over();
          done(null);
        }, spec.closeWithinMs);
        closed = (value) => {
          clearTimeout(bound);
          done(value);
        };
        worker.postMessage({ close: true } satisfies ToThread<Init>);
      });
    };
    const readyWithinMs = spec.readyWithinMs ?? READY_WITHIN_MS;
    readyTimer = setTimeout(() => fail(`the ${name} thread did not start within ${seconds(readyWithinMs)}`), readyWithinMs);
    // A thread that fails to load, throws, or exits on its own has died, whatever it was doing.
    worker.onerror = (event) => fail(`the ${name} thread failed: ${event.message}`);
    worker.addEventListener("close", () => fail(`the ${name} thread exited`));
    worker.onmessage = (event: MessageEvent<FromThread<Ready, Closed> | Out>) => {
      const msg = event.data as FromThread<Ready, Closed>;
      if ("ready" in msg && state === "starting") {
        state = "running";
        clearTimeout(readyTimer);
        resolve({ thread, ready: msg.ready });
      } else if ("failed" in msg) fail(msg.failed);
      else if ("closed" in msg) {
        over();
        closed(msg.closed);
      } else spec.onMessage?.(event.data as Out);
    };
    worker.postMessage({ init: spec.init } satisfies ToThread<Init>);
  });
}
