// Every flag, once: its name, whether it takes a value, its help line, and the command it belongs to.
// The --help text, the .deb's /etc/default and the man page are made from this table
// (scripts/lib/deb), and every global flag is also read from SHORTENER_<FLAG> (environmentVariable).

export type Flag = {
  name: string;
  value: boolean; // takes a value (vs. a switch like --help)
  help: string;
  /** only valid with this command, or these (e.g. --scope with `key create`; --user with `key create` and `domain allow`) */
  command?: string | readonly string[];
  /** may be given more than once: the values are joined by commas (--domain-map a=b --domain-map c=d) */
  repeatable?: boolean;
};

export const FLAGS: readonly Flag[] = [
  { name: "port", value: true, help: "TCP port to listen on (default 8080; 0 picks a free one)" },
  { name: "host", value: true, help: "address to listen on (default 0.0.0.0)" },
  { name: "db", value: true, help: "SQLite file (the service makes ./shortener.db, or $STATE_DIRECTORY/shortener.db; commands find an existing one), or postgres://user@host/database for several instances" },
  { name: "base-url", value: true, help: "public URL of the service, e.g. https://s.example.org (default: from the Host header)" },
  { name: "trust-proxy", value: true, help: "comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-* headers are believed (default: none)" },
  { name: "geoip-db", value: true, help: "path to your own GeoLite2/GeoIP2 Country or City .mmdb (default: the embedded GeoLite2 Country)" },
  { name: "create-rate-limit", value: true, help: "link creations per minute per client address without a key, 0 = off (default 60)" },
  { name: "create-access", value: true, help: "who may create links: public or key (default public)" },
  { name: "stats-access", value: true, help: "who may read statistics: public or key (the link's owner key or an admin key; default public)" },
  { name: "blocklist", value: true, help: "file of blocked domains and /regex/ entries, one a line (reloaded on SIGHUP or change)" },
  { name: "metrics-allow", value: true, help: "addresses that may read /metrics without an admin key: IPs/CIDRs, loopback, private, or off (default loopback)" },
  { name: "allow-loopback-destinations", value: false, help: "accept links to localhost, loopback and link-local addresses (refused by default; private LAN addresses are always accepted)" },
  { name: "webhook-allow-private", value: false, help: "let webhooks post to loopback, private (LAN) and link-local addresses, e.g. Home Assistant or n8n at home (refused by default)" },
  { name: "import-allow-private", value: false, help: "let the dashboard's import reach loopback, private (LAN) and link-local addresses, e.g. a Shlink or YOURLS database on this host (refused by default; `shortener import` always may)" },
  { name: "compat", value: true, help: "the other shorteners' APIs this one speaks, for their clients: yourls, kutt, shlink (comma-separated) or off (default yourls,kutt,shlink)" },
  { name: "cors-origin", value: true, help: "web origins whose pages may call the Shlink API (e.g. https://app.shlink.io, Shlink's web client), comma-separated, or * for any (default: none)" },
  { name: "allow-schemes", value: true, help: "destination schemes beside http and https, for links into apps, comma-separated, e.g. tg,spotify,market,mailto (never javascript, data, file, vbscript, blob; default: none)" },
  { name: "qr-logo", value: true, help: "a PNG drawn in the middle of the QR codes served at /<alias>/qr (default: none)" },
  { name: "fetch-titles", value: true, help: "fetch a link's title from its page when none is given: off (default), on (public addresses only), or any (loopback, private and link-local addresses too)" },
  { name: "root-redirect", value: true, help: "an http(s) URL that / redirects to instead of showing the public form" },
  { name: "not-found-redirect", value: true, help: "an http(s) URL that unknown short links redirect to instead of the not-found page" },
  { name: "orphan-visits", value: true, help: "count visits to no link (/, unknown aliases, other not-found pages): on (default) or off (docs/statistics.md: Visits to no link)" },
  { name: "log-format", value: true, help: "text or json (default text)" },
  { name: "oidc-issuer", value: true, help: "sign in through this OpenID provider (https, or http on loopback); needs --base-url and --oidc-client-id" },
  { name: "oidc-client-id", value: true, help: "the client id registered at the provider (the secret: $CREDENTIALS_DIRECTORY/oidc-client-secret or SHORTENER_OIDC_CLIENT_SECRET)" },
  { name: "oidc-admin-group", value: true, help: "members of this group are admins (default: the first user to sign in)" },
  { name: "oidc-allowed-group", value: true, help: "only members of this group may sign in (default: everyone the provider lets through)" },
  { name: "oidc-groups-claim", value: true, help: "the claim that lists a user's groups (default groups)" },
  { name: "oidc-name", value: true, help: "the provider's name on the sign-in button (default: the issuer's host)" },
  { name: "oidc-only", value: false, help: "the dashboard signs in through the provider only (no pasted keys; bearer keys still work for scripts)" },
  { name: "auth-header", value: true, help: "believe an auth proxy's user header from --trust-proxy peers (e.g. Remote-User), or tailscale (Tailscale-User-Login from loopback)" },
  { name: "auth-groups-header", value: true, help: "the proxy's groups header, separated by commas or | (default Remote-Groups)" },
  { name: "auth-email-header", value: true, help: "the proxy's email header (default Remote-Email)" },
  { name: "auth-admin-group", value: true, help: "members of this proxy group are admins (default: the first user there was)" },
  { name: "auth-allowed-group", value: true, help: "only members of this proxy group are let in (default: every user the proxy names)" },
  { name: "no-count-from", value: true, repeatable: true, help: "clicks from these client addresses are answered but never counted: IPs/CIDRs, loopback, private; repeatable or comma-separated (default: none)" },
  { name: "no-count-param", value: true, help: "a query parameter (e.g. nocount) that keeps a click out of the statistics, taken out of the Location; or off (default off)" },
  { name: "do-not-track", value: true, help: "count (default) or skip: whether clicks sending DNT: 1 or Sec-GPC: 1 are counted" },
  { name: "help", value: false, help: "show this help and exit" },
  { name: "version", value: false, help: "print the version and exit" },
  { name: "scope", value: true, help: "admin (every link) or create (creates links, sees only its own); default admin, or the user's own with --user", command: "key" },
  { name: "user", value: true, help: "with key create: the user the key acts as (their links); with domain allow: the user who may create on it; a name from `shortener user list`", command: ["key", "domain"] },
  { name: "from", value: true, help: "import: the source, shlink, yourls, kutt, bitly or csv (docs/importing.md: Moving from another shortener); export visits: the first day (YYYY-MM-DD, UTC) or an ISO timestamp", command: ["import", "export"] },
  { name: "url", value: true, help: "import from shlink or kutt: where it answers, e.g. https://s.example.org (bitly: its API, default https://api-ssl.bitly.com)", command: "import" },
  { name: "api-key-file", value: true, help: "import from shlink or kutt: a file holding its API key (or SHLINK_API_KEY, KUTT_API_KEY)", command: "import" },
  { name: "source-db", value: true, help: "import from yourls: its database, mysql://user@host:3306/yourls (read only; the password in YOURLS_DB_PASSWORD)", command: "import" },
  { name: "prefix", value: true, help: "import from yourls: its table prefix (default yourls_)", command: "import" },
  { name: "token-file", value: true, help: "import from bitly: a file holding an access token (or BITLY_TOKEN)", command: "import" },
  { name: "group", value: true, help: "import from bitly: the group's guid (default: every group the token sees)", command: "import" },
  { name: "file", value: true, help: "import from csv: the file", command: "import" },
  { name: "map", value: true, help: "import from csv: our field=its column, e.g. long=Destination,alias=Keyword,created=Date,tags=Tags,title=Title", command: "import" },
  { name: "domain-map", value: true, repeatable: true, help: "import: a source domain's links onto one of ours, OLD=NEW (NEW \"default\": our default domain); repeatable or comma-separated (docs/importing.md: Domains)", command: "import" },
  { name: "on-conflict", value: true, help: "import: fail (default: nothing is written), skip, or rename (a new id) for codes that cannot be kept", command: "import" },
  { name: "dry-run", value: false, help: "import: say what would happen, write nothing", command: "import" },
  { name: "visits", value: false, help: "import: the click history too (visits, or the counts Kutt and Bitly keep)", command: "import" },
  { name: "events", value: true, help: "webhook add: the event types, comma-separated: link.created, link.updated, link.deleted, link.gone, link.clicks, link.milestone", command: "webhook" },
  { name: "link", value: true, help: "webhook add: only this link's events; export visits: only this link's visits (its alias)", command: ["webhook", "export"] },
  { name: "tag", value: true, help: "webhook add: only events of links with this tag; export visits: only the visits of links with this tag", command: ["webhook", "export"] },
  { name: "http", value: false, help: "domain add, domain set: its short URLs are http:// (default https://)", command: "domain" },
  { name: "https", value: false, help: "domain set: its short URLs are https:// again", command: "domain" },
  { name: "fallback-redirect", value: true, help: "domain add, domain set: where its expired, disabled or used-up links without a fallback of their own redirect (\"\" clears; --root-redirect and --not-found-redirect work the same there)", command: "domain" },
  { name: "robots", value: true, help: "domain add, domain set: its robots.txt: links (only crawlable links), none or all (\"\" clears: the instance's, links)", command: "domain" },
  { name: "move-links-to", value: true, help: "domain remove: move its links to this domain first", command: "domain" },
  { name: "key", value: true, help: "domain allow: the API key (its name, from `shortener key list`) that may create on the domain", command: "domain" },
  { name: "to", value: true, help: "copy: the empty database to copy into, postgres://user@host/database (its password in $CREDENTIALS_DIRECTORY/db-password or PGPASSWORD, never in the URL) or a new SQLite file; export visits: the last day (included) or an ISO timestamp (excluded)", command: ["copy", "export"] },
  { name: "domain", value: true, help: "export visits: only this domain's links (with --link: the link of that domain)", command: "export" },
  { name: "bots", value: true, help: "export visits: exclude (leave bots' visits out) or include (default)", command: "export" },
  { name: "format", value: true, help: "export visits: csv (default) or jsonl (one JSON object a line)", command: "export" },
  { name: "output", value: true, help: "export visits: write into this new file instead of stdout (with --after: append to it)", command: "export" },
  { name: "after", value: true, help: "export visits: go on after this visitId, the last row a broken export wrote", command: "export" },
  { name: "orphans", value: false, help: "export visits: the visits to no link instead of links' (docs/statistics.md: Visits to no link); not with --link, --tag or --domain", command: "export" },
];

/** SHORTENER_BASE_URL for base-url: where a global flag is also read from the environment (the .deb's /etc/default lists them). */
export function environmentVariable(flag: string): string {
  return `SHORTENER_${flag.toUpperCase().replaceAll("-", "_")}`;
}
