// The HTML answer for a click while the database cannot be reached (PostgreSQL away) and the link
// is not in memory: a 503 that a browser retries later, never a 500.

const HTML_SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Try again shortly</title></head>
<body><main><h1>Try again shortly</h1><p>This short link cannot be looked up right now. Please try again in a minute.</p></main></body></html>`;

export function unavailablePage(): Response {
  return new Response(PAGE, {
    status: 503,
    headers: { ...HTML_SECURITY_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
  });
}
