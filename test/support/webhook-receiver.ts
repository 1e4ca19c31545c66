// A webhook receiver for the tests: a Bun server on its own loopback address (127.0.0.7, so the
// service needs --webhook-allow-private, as a homelab's would) that checks every delivery's
// signature with the Standard Webhooks project's own library (standardwebhooks on npm,
// https://github.com/standard-webhooks/standard-webhooks, libraries/javascript), keeps what it got,
// and answers as the test says (204 by default; a status, a delay, or no answer at all).

import { Webhook } from "standardwebhooks";

export type Received = {
  /** webhook-id: the same on every attempt of a message */
  id: string;
  /** webhook-timestamp, Unix seconds */
  timestamp: number;
  /** what standardwebhooks' verify() said: "ok" or its error */
  verified: string;
  type: string;
  body: any;
  /** when it arrived (ms) */
  at: number;
};

/** What to answer the nth request (0-based): a Response, or a promise that never settles to hold it. */
export type Answer = (request: Request, n: number) => Response | Promise<Response>;

export type Receiver = {
  url: string;
  received: Received[];
  /** Deliveries whose signature verified, each message once (the de-duplication a receiver does by webhook-id). */
  unique(): Received[];
  ofType(type: string): Received[];
  setSecret(secret: string): void;
  answer(answer: Answer): void;
  stop(): void;
};

export const RECEIVER_HOST = "127.0.0.7";

/** `host`: 127.0.0.1 where a test's rules want the receiver there. */
export function startReceiver(path = "/hook", host = RECEIVER_HOST): Receiver {
  const received: Received[] = [];
  let secret: string | null = null;
  let answer: Answer = () => new Response(null, { status: 204 });
  let n = 0;
  const server = Bun.serve({
    hostname: host,
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers);
      let verified = "no secret set";
      if (secret !== null) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = "ok";
        } catch (err) {
          verified = err instanceof Error ? err.message : String(err);
        }
      }
      let parsed: any = null;
      try {
        parsed = JSON.parse(body);
      } catch {}
      received.push({ id: headers["webhook-id"] ?? "", timestamp: Number(headers["webhook-timestamp"]), verified, type: parsed?.type ?? "", body: parsed, at: Date.now() });
      return answer(request, n++);
    },
  });
  return {
    url: `http://${host}:${server.port}${path}`,
    received,
    unique() {
      const seen = new Set<string>();
      return received.filter((r) => r.verified === "ok" && !seen.has(r.id) && (seen.add(r.id), true));
    },
    ofType: (type) => received.filter((r) => r.type === type),
    setSecret(s) {
      secret = s;
    },
    answer(a) {
      answer = a;
    },
    stop: () => server.stop(true),
  };
}
