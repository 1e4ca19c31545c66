// The live view's stream (text/event-stream), read with fetch() rather than EventSource: EventSource
// sends no custom headers, and the pages' API calls carry the same cookie and headers as this one.
// A stream that ends or fails is opened again after 3 s, then 6, 12… up to a minute (back to 3 s
// after one that lasted); one that went quiet past its heartbeats (a proxy holding it open)
// counts as ended. A 4xx other than 408 and 429
// (signed out, not allowed, no such link, no live view on this server) will not change by trying
// again, so the stream then gives up for good. Nothing here reads the page when loaded, so the
// parser can be tested outside a browser.

export type SseMessage = { event: string; data: string };

/** Lines in, events out, as the HTML standard's event-stream parser reads them (id and retry unused). */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  /** The last chunk ended in CR: a LF starting the next one is the rest of that CRLF. */
  private skipLf = false;

  push(chunk: string): SseMessage[] {
    if (this.skipLf && chunk.startsWith("\n")) chunk = chunk.slice(1);
    this.skipLf = chunk.endsWith("\r");
    const lines = (this.buffer + chunk).split(/\r\n|\r|\n/);
    this.buffer = lines.pop()!;
    const out: SseMessage[] = [];
    for (const line of lines) {
      if (line === "") {
        // A blank line ends the event; one without data lines is dropped, as the standard says.
        if (this.data.length > 0) out.push({ event: this.event || "message", data: this.data.join("\n") });
        this.event = "";
        this.data = [];
        continue;
      }
      if (line.startsWith(":")) continue; // a comment (keep-alive)
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") this.event = value;
      else if (field === "data") this.data.push(value);
    }
    return out;
  }
}

/** An event's JSON data; null when it is not JSON (a handler never throws into the stream's loop). */
export function dataOf<T>(message: SseMessage): T | null {
  try {
    return JSON.parse(message.data) as T;
  } catch {
    return null;
  }
}

/** "open": events flow; "waiting": ended, paused or failed, trying again; "gone": given up. */
export type LiveState = "open" | "waiting" | "gone";

export type LiveOptions = {
  onMessage: (message: SseMessage) => void;
  onState: (state: LiveState) => void;
  /** Close while the tab is hidden and open again when it shows (the page catches up itself). */
  pauseWhenHidden?: boolean;
};

const RETRY_MS = 3_000;
const MAX_RETRY_MS = 60_000;
/** A stream open this long before it ended worked: the next wait is the first one again. */
const STEADY_MS = 60_000;
/** Heartbeats come every 5 s: this long without a byte means the stream is dead. */
const SILENCE_MS = 20_000;

const finalStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export class LiveStream {
  /** Aborts the current run (its fetch, its wait); null while paused or closed. */
  private run: AbortController | null = null;
  private closed = false;
  private readonly onVisibility = () => (document.hidden ? this.pause() : this.start());

  constructor(
    private readonly url: string,
    private readonly options: LiveOptions,
  ) {
    if (options.pauseWhenHidden) document.addEventListener("visibilitychange", this.onVisibility);
    if (!(options.pauseWhenHidden && document.hidden)) this.start();
  }

  close(): void {
    this.closed = true;
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.run?.abort();
    this.run = null;
  }

  private start(): void {
    if (this.closed || this.run) return;
    const run = (this.run = new AbortController());
    void this.loop(run.signal);
  }

  private pause(): void {
    if (!this.run) return;
    this.run.abort();
    this.run = null;
    this.options.onState("waiting");
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let delay = RETRY_MS;
    while (!signal.aborted) {
      const began = Date.now();
      const outcome = await this.connect(signal);
      if (signal.aborted) return;
      // A stream that lasted is a fresh start; one cut short again and again waits longer each time.
      if (Date.now() - began >= STEADY_MS) delay = RETRY_MS;
      if (outcome === "gone") {
        this.run = null;
        this.options.onState("gone");
        return;
      }
      this.options.onState("waiting");
      await sleep(delay, signal);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }

  /** One connection, read to its end. */
  private async connect(signal: AbortSignal): Promise<"ended" | "gone"> {
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener("abort", abort, { once: true });
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, SILENCE_MS);
    };
    try {
      arm();
      const res = await fetch(this.url, {
        credentials: "same-origin",
        cache: "no-store",
        // As api.ts sends them: the page's language goes with every call.
        headers: { Accept: "text/event-stream", "Accept-Language": document.documentElement.lang || "en" },
        signal: connection.signal,
      });
      const isStream = (res.headers.get("Content-Type") ?? "").startsWith("text/event-stream");
      if (!res.ok || !res.body || !isStream) {
        await res.body?.cancel().catch(() => {});
        return finalStatus(res.status) ? "gone" : "ended";
      }
      this.options.onState("open");
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "ended";
        arm();
        for (const message of parser.push(value)) this.options.onMessage(message);
      }
    } catch {
      return "ended"; // network failure, or aborted (by the watchdog, a pause or close)
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener("abort", abort);
      connection.abort();
    }
  }
}
