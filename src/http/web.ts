// The web UI: server-rendered pages (home, stats, 404) and the built, embedded assets, each on
// an exact route so the core's `/:id` redirect never shadows them. Assets come from the manifest
// that scripts/build-web.ts generates (`npm run build:web`).
import type { RootAnswer } from "../domains/answers.ts";
import type { RobotsPolicy } from "../domains/domain.ts";
import { keyParts } from "../domains/link-key.ts";
import type { MaybePromise } from "../util/maybe.ts";
import { Elysia } from "elysia";
import { LANGUAGES, pickLanguage, type Language } from "../lang.ts";
import { renderDashboard, renderHeaderRefused, renderHome, renderNotFound, renderStatsPrivate, type PageAssets } from "../../web/server/pages.ts";
import { renderStats } from "../../web/server/stats-page.ts";
import { renderAggregate, renderCompare } from "../../web/server/aggregate-page.ts";
import { ASSETS, ENTRIES } from "./web-assets.generated.ts";
import type { PeerServer } from "./request-origin.ts";

export type WebDeps = {
  /**
   * Whether the request may see this link's stats page: it exists, and it is public or theirs (then
   * when it was made, and `destinationHidden`: a link with a password, and not theirs; docs/security.md:
   * Security); "header_invalid": its proxy's identity header could not be read.
   */
  statsPage: (request: Request, server: PeerServer, id: string) => Promise<{ destinationHidden: boolean; createdAt: number; shortUrl: string | null } | "not_found" | "private" | "header_invalid">;
  /**
   * The link a share token opens (docs/statistics.md: Sharing statistics): its alias, when it was
   * made and whether its destination is hidden; "not_found" for a token that opens nothing.
   */
  sharedStatsPage: (request: Request, server: PeerServer, token: string) => Promise<{ id: string; destinationHidden: boolean; createdAt: number; shortUrl: string | null } | "not_found">;
  /** --stats-access public: the pages say that anyone with a short link can read its statistics */
  statsPublic: () => boolean;
  now: () => number;
  version: string;
  /** what `/` answers on the request's domain (src/domains/answers.ts) */
  root: (request: Request) => RootAnswer;
  /** the request's domain: its key (links.domain) and its robots policy */
  robots: (request: Request) => { key: string; policy: RobotsPolicy };
  /** the keys of the links search engines may follow (robots.txt; src/domains/link-key.ts) */
  crawlable: () => MaybePromise<string[]>;
  /** the 404 page (not-found.ts) */
  notFound: (request: Request) => Response;
};

// No inline script or style anywhere; the pages only talk to their own origin.
const csp = (formAction: string) =>
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  `font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
const CSP = csp("'self'");
/**
 * A link password page's: its form posts to this service, and the right password is answered by a
 * 303 to the destination, which Chromium holds to form-action too.
 */
export const PASSWORD_PAGE_CSP = csp("'self' http: https:");

export const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": CSP,
  "X-Content-Type-Options": "nosniff",
  // no-referrer: a stats page URL names a link; no other host needs to learn it.
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-cache",
};

const PAGE_ASSETS: PageAssets = ENTRIES;

function html(body: string, lang: Language, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...HTML_HEADERS, "Content-Language": lang, ...extra } });
}

type Bytes = Uint8Array<ArrayBuffer>;
type Loaded = { raw: Bytes; gzip: Bytes | null; type: string };

/** Reads an embedded file once, with a gzip copy when that is smaller (all our assets are text). */
async function load(file: string, type: string): Promise<Loaded> {
  const raw = (await Bun.file(file).bytes()) as Bytes;
  const gz = Bun.gzipSync(raw) as Bytes;
  return { raw, gzip: gz && gz.length < raw.length ? gz : null, type };
}

function assetResponse(asset: Loaded, acceptEncoding: string | null, cache: string): Response {
  const headers: Record<string, string> = {
    "Content-Type": asset.type,
    "Cache-Control": cache,
    "X-Content-Type-Options": "nosniff",
    Vary: "Accept-Encoding",
  };
  if (asset.gzip && /\bgzip\b/.test(acceptEncoding ?? "")) {
    headers["Content-Encoding"] = "gzip";
    return new Response(asset.gzip, { headers });
  }
  return new Response(asset.raw, { headers });
}

/** robots.txt is made again at most this often (a new crawlable link shows up within it). */
const ROBOTS_TTL_MS = 60_000;

/**
 * Search engines may read the pages, never the API or stats, and no short link unless its owner
 * made it crawlable: `Disallow: /` with the pages and those links allowed (the longest rule wins;
 * `$` ends a link's path, so /abc does not allow /abcdef).
 */
function robotsTxt(crawlable: readonly string[], domain: string, policy: RobotsPolicy): string {
  if (policy === "none") return "User-agent: *\nDisallow: /\n";
  const lines = ["User-agent: *", "Disallow: /api/", "Disallow: /stats/", ...LANGUAGES.map((l) => `Disallow: /${l}/stats/`)];
  if (policy === "all") return [...lines, "Allow: /"].join("\n") + "\n";
  lines.push("Allow: /$", "Allow: /assets/", "Allow: /favicon.ico$", ...LANGUAGES.map((l) => `Allow: /${l}/`));
  for (const key of crawlable) {
    const { domain: of, alias } = keyParts(key);
    if (of === domain) lines.push(`Allow: /${alias}$`);
  }
  lines.push("Disallow: /");
  return lines.join("\n") + "\n";
}

/** The UI's routes as an Elysia plugin: pages per language, stats pages, assets, favicon, robots.txt. */
export function webRoutes(deps: WebDeps) {
  const cache = new Map<string, Promise<Loaded>>();
  const get = (file: string, type: string) => {
    let p = cache.get(file);
    if (!p) cache.set(file, (p = load(file, type)));
    return p;
  };
  const acceptLang = (headers: Record<string, string | undefined>) => pickLanguage(headers["accept-language"]);

  const app = new Elysia({ name: "web" });

  // `/` renders in the best language for Accept-Language (no redirect round trip); caches must key on it.
  app.get("/", ({ headers, request }) => {
    const root = deps.root(request);
    if (root === "none") return deps.notFound(request);
    if (root !== "home") return new Response(null, { status: 302, headers: { Location: root.redirect, "Cache-Control": "no-cache" } });
    const lang = acceptLang(headers);
    return html(renderHome(lang, PAGE_ASSETS, deps.statsPublic()), lang, 200, { Vary: "Accept-Language" });
  });

  for (const lang of LANGUAGES) {
    app.get(`/${lang}`, () => html(renderHome(lang, PAGE_ASSETS, deps.statsPublic()), lang));
    app.get(`/${lang}/`, () => html(renderHome(lang, PAGE_ASSETS, deps.statsPublic()), lang));
  }

  // One static prefix per language: a `/:lang/...` parameter would clash with the core's `/:id`
  // (Elysia's router needs one parameter name per position), and unknown languages 404 anyway.
  for (const lang of LANGUAGES) {
    app.get(`/${lang}/stats/:id`, async ({ params, request, server }) => {
      const verdict = await deps.statsPage(request, server, params.id);
      if (verdict === "not_found") return html(renderNotFound(lang, "link", PAGE_ASSETS), lang, 404);
      if (verdict === "private") return html(renderStatsPrivate(lang, params.id, PAGE_ASSETS), lang, 401);
      if (verdict === "header_invalid") return html(renderHeaderRefused(lang, PAGE_ASSETS), lang, 400);
      const domain = new URL(request.url).searchParams.get("domain") || null;
      return html(renderStats(lang, params.id, PAGE_ASSETS, { ...verdict, domain, statsPublic: deps.statsPublic(), now: deps.now() }), lang);
    });
  }

  app.use(sharedPages(deps));

  // The owner's dashboard; the page itself is public, the data behind it needs a key or a session.
  for (const lang of LANGUAGES) app.get(`/${lang}/links`, () => html(renderDashboard(lang, PAGE_ASSETS), lang));
  aggregatePages(app, deps.notFound);
  app.get("/links", ({ headers }) => {
    const lang = acceptLang(headers);
    return new Response(null, { status: 302, headers: { Location: `/${lang}/links`, Vary: "Accept-Language", "Cache-Control": "no-cache" } });
  });

  app.get("/stats/:id", ({ params, headers, request }) => {
    const lang = acceptLang(headers);
    // A link on another domain than the one asked keeps its ?domain= (docs/api.md: Read statistics).
    const domain = new URL(request.url).searchParams.get("domain");
    const query = domain ? `?${new URLSearchParams({ domain })}` : "";
    return new Response(null, {
      status: 302,
      headers: { Location: `/${lang}/stats/${encodeURIComponent(params.id)}${query}`, Vary: "Accept-Language", "Cache-Control": "no-cache" },
    });
  });

  // One route for every built file (their names carry a content hash, hence the long cache).
  const assets = new Map(ASSETS.map((a) => [a.route, a]));
  app.get("/assets/:file", async ({ params, headers, request }) => {
    const asset = assets.get(`/assets/${params.file}`);
    if (asset === undefined) return deps.notFound(request);
    return assetResponse(await get(asset.file, asset.type), headers["accept-encoding"] ?? null, "public, max-age=31536000, immutable");
  });

  const icon = ASSETS.find((a) => a.route === ENTRIES.icon);
  if (icon) {
    app.get("/favicon.ico", async ({ headers }) =>
      assetResponse(await get(icon.file, icon.type), headers["accept-encoding"] ?? null, "public, max-age=86400"),
    );
  }

  app.get("/robots.txt", robotsAnswer(deps));
  return app;
}

/**
 * A share link's page (docs/statistics.md: Sharing statistics), in the language asked for: no
 * redirect to a language, so the token stays out of a Location header.
 */
function sharedPages(deps: WebDeps) {
  const app = new Elysia({ name: "web-shared" });
  const sharedPage = async (lang: Language, context: { request: Request; server: PeerServer; params: { token?: string | null } }, vary: Record<string, string> = {}) => {
    // A path the router cannot decode (`%ZZ`) has no token: it opens nothing, as a guess does.
    const token = context.params.token ?? "";
    const verdict = await deps.sharedStatsPage(context.request, context.server, token);
    // The page holds the token (in its API address): no cache keeps it, not even to revalidate.
    const headers = { ...vary, "Cache-Control": "no-store" };
    if (verdict === "not_found") return html(renderNotFound(lang, "link", PAGE_ASSETS), lang, 404, headers);
    const page = renderStats(lang, verdict.id, PAGE_ASSETS, { ...verdict, domain: null, statsPublic: false, now: deps.now(), sharedToken: token });
    return html(page, lang, 200, headers);
  };
  for (const lang of LANGUAGES) app.get(`/${lang}/stats/shared/:token`, (context) => sharedPage(lang, context));
  app.get("/stats/shared/:token", (context) => sharedPage(pickLanguage(context.headers["accept-language"]), context, { Vary: "Accept-Language" }));
  return app;
}

/** robots.txt of the request's domain, made per domain (and policy) at most every ROBOTS_TTL_MS. */
function robotsAnswer(deps: WebDeps): (context: { request: Request }) => Promise<Response> {
  const robots = new Map<string, { text: string; at: number }>();
  return async ({ request }) => {
    const now = Date.now();
    const { key, policy } = deps.robots(request);
    const made = `${policy} ${key}`;
    let text = robots.get(made);
    if (text === undefined || now - text.at >= ROBOTS_TTL_MS) robots.set(made, (text = { text: robotsTxt(policy === "links" ? await deps.crawlable() : [], key, policy), at: now }));
    return new Response(text.text, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" } });
  };
}

/**
 * Above the single link: public pages like the dashboard's, the data behind them needs a key or a
 * session (docs/statistics.md: Tags and domains). /<lang>/compare, not under /stats/: a link may be called "compare".
 */
function aggregatePages(app: Pick<Elysia, "get">, notFound: WebDeps["notFound"]): void {
  // A name the router cannot decode (`%ZZ`) names no tag or domain: the 404 page, not a page about "null".
  const page = (lang: Language, kind: "tag" | "domain") => ({ params, request }: { params: { name?: string | null }; request: Request }) =>
    typeof params.name !== "string" ? notFound(request) : html(renderAggregate(lang, kind, params.name, PAGE_ASSETS), lang);
  for (const lang of LANGUAGES) {
    app.get(`/${lang}/stats/tag/:name`, page(lang, "tag"));
    app.get(`/${lang}/stats/domain/:name`, page(lang, "domain"));
    app.get(`/${lang}/compare`, () => html(renderCompare(lang, PAGE_ASSETS), lang));
  }
}
