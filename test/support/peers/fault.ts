// Shared scaffolding of the fake peers (shlink.ts, kutt.ts, bitly.ts) that the importers'
// integration tests read from: a Bun.serve on its own loopback address (never 127.0.0.1, whose
// answers test/support/contract-preload.ts holds to our own OpenAPI document), a log of every
// request, and fault injection.
//
// Sources: none of the peers' shapes live here. Each peer builds its own error body for a fault
// (Shlink problem JSON, Kutt {"error"}, Bitly {"message", "resource", "description"}), with its
// citations in its own file. `Retry-After` (delay in seconds) is the header of RFC 9110 §10.2.3;
// Shlink and Kutt have no rate limiting on these routes and Bitly documents no header, so a fault
// is how a test plays a proxy or a rate limit in front of the peer.

export type Fault = {
  /**
   * `path` is the request's pathname + search, as recorded in `requests`; `n` is the 1-based index
   * of this request among ALL requests the fake received (faulted ones included).
   */
  match: (path: string, n: number) => boolean;
  status: number;
  /** seconds, sent as `Retry-After` */
  retryAfter?: number;
  /** how many times the fault answers; unlimited when absent */
  times?: number;
  /** the peer's error code in place of the one for `status` (Bitly: "RATE_LIMIT_EXCEEDED" on a 403) */
  code?: string;
};

export type RecordedRequest = { method: string; path: string };

export type Peer = {
  /** e.g. http://127.0.0.4:PORT, no trailing slash */
  url: string;
  requests: RecordedRequest[];
  /** replaces the faults (and their `times` counters) */
  setFaults(faults: Fault[]): void;
  close(): Promise<void>;
};

type ServeOptions = {
  hostname: string;
  faults?: Fault[];
  /** the peer's own error answer for a fault's status */
  faultResponse: (status: number, code: string | undefined, url: URL) => Response;
  /** the peer's routes; `base` is the peer's own URL (for links it hands out) */
  handle: (request: Request, url: URL, base: string) => Response | Promise<Response>;
};

/** Starts a peer: records, then injects a matching fault, else lets the peer answer. */
export function servePeer(options: ServeOptions): Peer {
  const requests: RecordedRequest[] = [];
  let armed = arm(options.faults ?? []);
  const server = Bun.serve({
    hostname: options.hostname,
    port: 0,
    fetch: async (request): Promise<Response> => {
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      requests.push({ method: request.method, path });
      const n = requests.length;
      const hit = armed.find((entry) => entry.left > 0 && entry.fault.match(path, n));
      if (hit !== undefined) {
        hit.left -= 1;
        const response = options.faultResponse(hit.fault.status, hit.fault.code, url);
        if (hit.fault.retryAfter !== undefined) response.headers.set("Retry-After", String(hit.fault.retryAfter));
        return response;
      }
      return options.handle(request, url, base);
    },
  });
  const base: string = `http://${options.hostname}:${server.port}`;
  return {
    url: base,
    requests,
    setFaults: (faults) => {
      armed = arm(faults);
    },
    close: () => server.stop(true),
  };
}

function arm(faults: Fault[]): { fault: Fault; left: number }[] {
  return faults.map((fault) => ({ fault, left: fault.times ?? Number.POSITIVE_INFINITY }));
}

/** A JSON answer with the peer's content type. */
export function json(status: number, body: unknown, contentType = "application/json", headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": contentType, ...headers } });
}
