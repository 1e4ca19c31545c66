// Pages whose titles the service fetches (docs/link-titles.md: How a title is fetched), served on
// 127.0.0.1 only: charsets named by the header or by the page, entities, a page without a title,
// one that is not HTML, one that never ends, one that stalls after its title, one that never answers, redirect chains, and one held until
// the test lets it answer. Every request is recorded, so that a test can tell none came.

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const html = (body: BodyInit, type = "text/html; charset=utf-8") => new Response(body, { headers: { "Content-Type": type } });

export type TitlePages = {
  url: (path: string) => string;
  /** every request so far, in order: its path (without /page) and query, its headers as they came, the request (for its signal) */
  requests: { path: string; headers: Record<string, string>; request: Request }[];
  /** /gate/... answers once this is called */
  openGate: () => void;
  stop: () => void;
};

export function startTitlePages(): TitlePages {
  const requests: TitlePages["requests"] = [];
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  /** A page that never ends: its head, then filler for as long as it is read. */
  const endless = (head: string) => {
    let first = true;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(first ? head : `<p>${"filler ".repeat(2300)}</p>\n`));
        first = false;
      },
    });
  };
  /** A page that sends its head, then nothing more, without ending: only a reader that stops at </title> gets done before its time bound. */
  const stalls = (head: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
      },
    });
  const pages: Record<string, () => Response | Promise<Response>> = {
    "/utf8": () => html("<!doctype html><html><head><title>Grüße aus 東京</title></head><body></body></html>"),
    "/latin1": () => html(latin1("<html><head><title>Caf\u00e9 cr\u00e8me</title></head></html>"), "text/html; charset=ISO-8859-1"),
    "/cp1252": () => html(Uint8Array.from([...latin1('<head><meta charset="windows-1252"><title>'), 0x93, ...latin1("Quoted"), 0x94, ...latin1(" for "), 0x80, ...latin1("5</title>")]), "text/html"),
    "/entities": () => html("<title>Caf&eacute; &amp; Bar &#8212; Men&#xFC;</title>"),
    "/spaced": () => html("<title>\n   Several\n\tlines   here \r\n</title>"),
    "/untitled": () => html("<html><head></head><body>No title here</body></html>"),
    "/json": () => new Response('{"html":"<title>not a page</title>"}', { headers: { "Content-Type": "application/json" } }),
    "/endless": () => html(endless("<!doctype html><html><head>")),
    "/titled-then-stalls": () => html(stalls("<!doctype html><html><head><title>Read only this far</title>")),
    "/hold": () => new Promise<Response>(() => {}),
    "/gate": async () => {
      await gate;
      return html("<title>From the page</title>");
    },
    "/loop": () => new Response(null, { status: 302, headers: { Location: "/page/loop" } }),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch(request) {
      // Under /page/: a one-segment path would look like a short link to the tests' contract check (test/support/contract-preload.ts).
      const url = new URL(request.url);
      const pathname = url.pathname.replace(/^\/page/, "");
      requests.push({ path: pathname + url.search, headers: Object.fromEntries(request.headers), request });
      // /hop/3 → /hop/2 → /hop/1 → /hop/0, a page; each hop a relative Location ("2"), the loop an absolute path.
      const hop = /^\/hop\/(\d+)$/.exec(pathname);
      if (hop) return Number(hop[1]) === 0 ? html("<title>After the hops</title>") : new Response(null, { status: 301, headers: { Location: `${Number(hop[1]) - 1}` } });
      return pages[pathname]?.() ?? new Response("no such page", { status: 404 });
    },
  });
  return {
    url: (path) => `http://127.0.0.1:${server.port}/page${path}`,
    requests,
    openGate: () => openGate(),
    stop: () => void server.stop(true),
  };
}
