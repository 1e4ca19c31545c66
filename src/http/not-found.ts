// The HTML answer for a short link that does not exist.

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Link not found</title></head>
<body><main><h1>Link not found</h1><p>This short link does not exist. Check the address, or <a href="/">create a new one</a>.</p></main></body></html>`;

export const HTML_SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

/** What an unknown short link answers: the page, or a redirect to --not-found-redirect. */
export function notFoundAnswer(redirect: string | null): () => Response {
  if (redirect === null) return notFoundPage;
  return () => new Response(null, { status: 302, headers: { Location: redirect, "Cache-Control": "no-store" } });
}

export function notFoundPage(): Response {
  return new Response(PAGE, {
    status: 404,
    headers: { ...HTML_SECURITY_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
