// Raw HTTP/1.x over a TCP socket, exact bytes: for what fetch refuses or silently repairs (a missing
// or hostile Host, invalid request lines, unnormalized paths (`../`, bad percent-encoding), header
// bytes that are not ASCII, repeated headers, oversized headers, lying Content-Length).

export type RawResponse = {
  /** null when the server closed the connection without answering (a legitimate reaction to garbage). */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  raw: string;
};

/**
 * Sends bytes on a fresh connection and reads until the server closes it or the first response is
 * complete. A response that never comes is a failure (the server must answer or hang up), hence the
 * generous deadline: it is a hang detector, not a timing assert.
 */
export async function rawRequest(port: number, request: string | Uint8Array, deadlineMs = 10_000): Promise<RawResponse> {
  const bytes = typeof request === "string" ? new TextEncoder().encode(request) : request;
  const chunks: Uint8Array[] = [];
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, chunk) {
        chunks.push(new Uint8Array(chunk));
        if (complete(Buffer.concat(chunks))) finish();
      },
      close: () => finish(),
      error: () => finish(),
      end: () => finish(),
    },
  });
  // Large requests may not fit the socket buffer at once: keep writing what is left.
  let offset = 0;
  while (offset < bytes.length) {
    const n = socket.write(bytes.subarray(offset));
    if (n < 0) break; // closed by the server mid-request, e.g. after rejecting the headers
    offset += n;
    if (n === 0) await Bun.sleep(1);
  }
  const timer = setTimeout(finish, deadlineMs);
  await done;
  clearTimeout(timer);
  socket.end();
  const raw = Buffer.concat(chunks).toString("latin1");
  if (raw === "" ) return { status: null, headers: {}, body: "", raw };
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
  if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`);
  const headEnd = raw.indexOf("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, headEnd === -1 ? undefined : headEnd).split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(m[1]), headers, body: headEnd === -1 ? "" : decodeBody(raw.slice(headEnd + 4), headers), raw };
}

/** True once a whole response (headers plus Content-Length bytes or the final chunk) has arrived. */
function complete(buf: Buffer): boolean {
  const text = buf.toString("latin1");
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) return false;
  const head = text.slice(0, headEnd).toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) return text.length - headEnd - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) return text.endsWith("0\r\n\r\n");
  return /^http\/1\.[01] (1\d\d|204|304)/.test(head);
}

function decodeBody(body: string, headers: Record<string, string>): string {
  if (!/chunked/i.test(headers["transfer-encoding"] ?? "")) return Buffer.from(body, "latin1").toString("utf8");
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) break;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
  return Buffer.from(out, "latin1").toString("utf8");
}

/** A GET with just enough headers, for a path sent exactly as given. */
export function rawGet(port: number, target: string, extraHeaders = ""): Promise<RawResponse> {
  return rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extraHeaders}Connection: close\r\n\r\n`);
}
