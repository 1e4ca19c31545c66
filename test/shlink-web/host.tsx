// The page that hosts Shlink's own web UI for test/browser/shlink-web.test.ts. Shlink ships the UI as
// a React library (@shlinkio/shlink-web-component) that its web client wraps with server
// management; this page is the least host that library needs: a client of Shlink's SDK pointed at
// one server, and the server's version, which the component gates its features by (research §5;
// shlink-web-component's dev/ folder is its own such host). Everything comes from the query
// string, so the test decides which server and key (?server=http://127.0.0.1:PORT&key=…&theme=dark).
import { ShlinkApiClient } from "@shlinkio/shlink-js-sdk";
import { FetchHttpClient } from "@shlinkio/shlink-js-sdk/fetch";
import { ShlinkWebComponent } from "@shlinkio/shlink-web-component";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";

type Connection = { client: ShlinkApiClient; serverUrl: string };
type Health = { state: "asking" } | { state: "ready"; version: string } | { state: "failed"; reason: string };

/** The server and key this page was opened with, kept for the whole visit: the UI's own links drop the query string. */
function connection(): Connection | null {
  const saved = sessionStorage.getItem("shlink-host");
  const query = new URLSearchParams(location.search);
  const baseUrl = query.get("server") ?? (saved ? JSON.parse(saved).baseUrl : null);
  const apiKey = query.get("key") ?? (saved ? JSON.parse(saved).apiKey : null);
  if (!baseUrl || !apiKey) return null;
  sessionStorage.setItem("shlink-host", JSON.stringify({ baseUrl, apiKey }));
  return { client: new ShlinkApiClient(new FetchHttpClient(), { baseUrl, apiKey }), serverUrl: baseUrl };
}

function Host({ link }: { link: Connection }) {
  const [health, setHealth] = useState<Health>({ state: "asking" });
  useEffect(() => {
    // As Shlink's web client does on selecting a server: health first, its version then gates the UI.
    link.client.health().then(
      (answer) => setHealth({ state: "ready", version: answer.version }),
      (error: unknown) => setHealth({ state: "failed", reason: JSON.stringify(error) ?? String(error) }),
    );
  }, [link]);
  if (health.state === "asking") return <p data-host="asking">Asking {link.serverUrl} for its health…</p>;
  if (health.state === "failed") return <p data-host="failed">Health check failed: {health.reason}</p>;
  return (
    <div data-host="ready" data-server-version={health.version} className="pt-(--header-height)">
      <header className="fixed top-0 inset-x-0 z-1000 h-(--header-height) flex items-center px-4 bg-lm-main dark:bg-dm-main text-white">
        Shlink web component · {link.serverUrl} · server v{health.version}
      </header>
      <ShlinkWebComponent serverVersion={health.version as `${number}.${number}.${number}`} apiClient={link.client} />
    </div>
  );
}

const theme = new URLSearchParams(location.search).get("theme");
if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
const link = connection();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>{link ? <Host link={link} /> : <p data-host="unset">Open this page with ?server=…&key=…</p>}</BrowserRouter>
  </StrictMode>,
);
