// The benchmark's ceiling: the least any click server must do. A bare Bun.serve that reads the
// link id from the path, the User-Agent, the Referer, the forwarded address and the peer address
// (what a visit needs), finds the destination in a Map and answers 302 with Location.
// `--reads-nothing` answers a fixed 302 without reading anything: the ceiling of the HTTP stack itself.
// Usage: bun scripts/ceiling-server.ts [--port N] [--reads-nothing]; prints "listening on http://host:port".
// POST /api/create (any body) adds a link, so the bench can create the ceiling's links like a shortener's.

const args = process.argv.slice(2);
const readsNothing = args.includes("--reads-nothing");
const portAt = args.indexOf("--port");
const port = portAt === -1 ? 0 : Number(args[portAt + 1]);

const LOCATION = "https://example.com/landing?ref=short";
const links = new Map<string, string>();

// Folding what was read into a value the process keeps makes sure the reads are really done.
let sink = 0;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  reusePort: false,
  fetch: readsNothing
    ? () => new Response(null, { status: 302, headers: { Location: LOCATION } })
    : (request, srv) => {
        const url = request.url;
        const pathStart = url.indexOf("/", url.indexOf("//") + 2);
        const query = url.indexOf("?", pathStart);
        const id = url.slice(pathStart + 1, query === -1 ? undefined : query);
        if (request.method === "POST") {
          const made = `c${links.size}`;
          links.set(made, `https://example.com/${made}?from=bench`);
          return Response.json({ success: true, data: { shortUrl: `http://${request.headers.get("host")}/${made}` } }, { status: 201 });
        }
        const location = links.get(id);
        if (location === undefined) return new Response(null, { status: 404 });
        const ua = request.headers.get("user-agent");
        const referer = request.headers.get("referer");
        const forwarded = request.headers.get("x-forwarded-for");
        const address = srv.requestIP(request)?.address ?? "";
        sink = (sink + (ua?.length ?? 0) + (referer?.length ?? 0) + (forwarded?.length ?? 0) + address.length) | 0;
        return new Response(null, { status: 302, headers: { Location: location } });
      },
});

console.log(`listening on http://${server.hostname}:${server.port} (${readsNothing ? "reads nothing" : "reads the path, UA, Referer, forwarded and peer address; a Map lookup"})`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(sink === -1 ? 1 : 0);
});
