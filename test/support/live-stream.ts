// The live view's stream (GET /api/stats/live) read by tests: its events parsed as they come (a
// plain parser of its own, not the page's), waited for by type, and closed by aborting the fetch.
//
// The test preload checks every response against the OpenAPI contract by reading a clone: a stream
// is stopped by aborting its fetch (cancelling the reader would wait on the unread clone forever).

export type SseEvent = { event: string; data: any; at: number };

export type Stream = {
  status: number;
  headers: Headers;
  /** The JSON answer when it is not a stream (401, 404, 429). */
  body: any;
  events: SseEvent[];
  /** The first event of this type at or after index `from`, or null if none came within `withinMs`. */
  next(type: string, withinMs: number, from?: number): Promise<SseEvent | null>;
  /** Every event of this type so far. */
  all(type: string): SseEvent[];
  ended(): boolean;
  close(): void;
};

const open = new Set<Stream>();

/** Closes every stream opened so far (call it after each test). */
export function closeStreams(): void {
  for (const s of open) s.close();
  open.clear();
}

/** GET /api/stats/live{query}, read in the background as an event stream (a plain parser of its own, not the page's). */
export async function liveStream(base: string, query = "", headers: Record<string, string> = {}): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/stats/live${query}`, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const isStream = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const events: SseEvent[] = [];
  let done = !isStream;
  let wake: () => void = () => {};
  let changed = new Promise<void>((r) => (wake = r));
  const notify = () => {
    const w = wake;
    changed = new Promise<void>((r) => (wake = r));
    w();
  };
  let body: any = null;
  if (isStream) {
    void (async () => {
      let buffer = "";
      try {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) !== -1) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = "message";
            const data: string[] = [];
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) event = line.slice(6).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            }
            if (data.length === 0) continue;
            events.push({ event, data: JSON.parse(data.join("\n")), at: performance.now() });
            notify();
          }
        }
      } catch {
        // aborted by close()
      } finally {
        done = true;
        notify();
      }
    })();
  } else {
    body = await res.json();
  }
  const stream: Stream = {
    status: res.status,
    headers: res.headers,
    body,
    events,
    all: (type) => events.filter((e) => e.event === type),
    async next(type, withinMs, from = 0) {
      const deadline = performance.now() + withinMs;
      for (;;) {
        const found = events.slice(from).find((e) => e.event === type);
        if (found) return found;
        const left = deadline - performance.now();
        if (left <= 0 || done) return null;
        await Promise.race([changed, Bun.sleep(left)]);
      }
    },
    ended: () => done,
    close() {
      abort.abort();
    },
  };
  if (isStream) open.add(stream);
  return stream;
}
