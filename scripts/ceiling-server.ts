// The benchmark's ceiling: the least any click server must do. A bare Bun.serve that reads the
// User-Agent, the Referer and the peer address (what a visit needs) and answers 302 with Location.
// `--reads-nothing` answers the same 302 without reading anything: the ceiling of the HTTP stack itself.
// Usage: bun scripts/ceiling-server.ts [--port N] [--reads-nothing]; prints "listening on http://host:port".

const args = process.argv.slice(2);
const readsNothing = args.includes("--reads-nothing");
const portAt = args.indexOf("--port");
const port = portAt === -1 ? 0 : Number(args[portAt + 1]);

const LOCATION = "https://example.com/landing?ref=short";

// Folding what was read into a value the process keeps makes sure the reads are really done.
let sink = 0;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  reusePort: false,
  fetch: readsNothing
    ? () => new Response(null, { status: 302, headers: { Location: LOCATION } })
    : (request, srv) => {
        const ua = request.headers.get("user-agent");
        const referer = request.headers.get("referer");
        const address = srv.requestIP(request)?.address ?? "";
        sink = (sink + (ua?.length ?? 0) + (referer?.length ?? 0) + address.length) | 0;
        return new Response(null, { status: 302, headers: { Location: LOCATION } });
      },
});

console.log(`listening on http://${server.hostname}:${server.port} (${readsNothing ? "reads nothing" : "reads UA, Referer, address"})`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(sink === -1 ? 1 : 0);
});
