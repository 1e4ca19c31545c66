// YOURLS, read from its MySQL/MariaDB database (its API has no click log): the url table for the
// links and, with --visits, the log table for every click. Only SELECTs are sent. The log's
// ip_address column is never read: imported visits count no unique visitors (docs/importing.md).
// Schema: YOURLS includes/functions-install.php, yourls_create_sql_tables() (1.7 to 1.10).
// The database's host goes through the outbound policy (src/outbound/reach.ts): the dashboard's
// import reaches no special-purpose address without --import-allow-private, and the client
// connects to the address that was checked (yourls-connection.ts).

import type { SQL } from "bun";
import { SourceError, type HistoryPage, type ImportSource, type SourceLink, type SourceVisit } from "../source.ts";
import { sourceTime } from "./time.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";
import { connectYourls, writtenDatabaseRefusal } from "./yourls-connection.ts";

const LINKS_PER_PAGE = 5_000;
const VISITS_PER_PAGE = 10_000;
/** The columns read; a database without them is not one this importer knows. */
const NEEDED = { url: ["keyword", "url", "title", "timestamp", "clicks"], log: ["click_id", "click_time", "shorturl", "referrer", "user_agent", "country_code"] };

export type YourlsOptions = { sourceDb: string | undefined; prefix: string | undefined; password?: string | undefined; reach: OutboundPolicy };

/** One YOURLS database: where it is, and its connection and schema check once made. */
type Yourls = {
  url: URL;
  database: string;
  prefix: string;
  /** What messages say: the URL without its password. */
  where: string;
  password: string | null;
  reach: OutboundPolicy;
  // Connected at the first query, once the host is resolved and checked.
  connection: Promise<SQL> | null;
  checked: Promise<void> | null;
};

export function yourlsSource(o: YourlsOptions): ImportSource {
  const y = readOptions(o);
  return {
    kind: "yourls",
    // Which YOURLS this is, whoever reads it: the host, port, database and prefix (not the user).
    identity: `yourls ${y.url.hostname.toLowerCase()}:${y.url.port || "3306"}/${y.database} ${y.prefix}`,
    keeps: "visits",
    links: () => links(y),
    history: (known, cursors) => history(y, known, cursors),
    close: async () => {
      await (await y.connection?.catch(() => null))?.close();
    },
  };
}

function readOptions(o: YourlsOptions): Yourls {
  if (o.sourceDb === undefined || o.sourceDb === "") throw new SourceError("--source-db is required: the YOURLS database, e.g. mysql://yourls@127.0.0.1:3306/yourls (the password in YOURLS_DB_PASSWORD)", "bad_option");
  if (!/^(mysql|mariadb):\/\//i.test(o.sourceDb)) throw new SourceError("--source-db must be a mysql:// URL (YOURLS keeps its links in MySQL or MariaDB)", "bad_option");
  const prefix = o.prefix ?? "yourls_";
  if (!/^[A-Za-z0-9_]*$/.test(prefix)) throw new SourceError("--prefix may hold only letters, digits and _ (YOURLS's own rule for YOURLS_DB_PREFIX)", "bad_option");
  // Checked before the client sees it: a URL it cannot parse must be a clear refusal, and never
  // one that quotes the password.
  let url: URL;
  try {
    url = new URL(o.sourceDb.replace(/^mariadb:/i, "mysql:"));
  } catch {
    throw new SourceError("--source-db is not a URL this importer can read: mysql://user:password@host:3306/database (a password with / ? # @ or : is written percent-encoded)", "bad_option");
  }
  const database = decodeURIComponent(url.pathname.slice(1));
  if (url.hostname === "" || database === "" || database.includes("/")) throw new SourceError("--source-db needs a host and a database: mysql://user:password@host:3306/database", "bad_option");
  const masked = new URL(url);
  if (masked.password !== "") masked.password = "***";
  const where = masked.toString();
  const refusal = writtenDatabaseRefusal(url, o.reach);
  if (refusal !== null) throw new SourceError(`--source-db ${where} is refused: ${refusal} (docs/importing.md: Moving from another shortener)`, "private");
  // The password from the environment (YOURLS_DB_PASSWORD) when the URL has none: out of the process list.
  const password = url.password === "" && o.password ? o.password : null;
  return { url, database, prefix, where, password, reach: o.reach, connection: null, checked: null };
}

const table = (y: Yourls, name: keyof typeof NEEDED) => `\`${y.prefix}${name}\``;

async function query<T>(y: Yourls, text: string, params: unknown[] = []): Promise<T[]> {
  y.connection ??= connectYourls(y.url, y.password, y.reach, y.where);
  const sql = await y.connection;
  try {
    return (await sql.unsafe(text, params)) as T[];
  } catch (err) {
    throw sourceError(err, y.where);
  }
}

// The tables and columns, once, before anything is read: a clear refusal instead of a SQL error half-way.
function check(y: Yourls): Promise<void> {
  return (y.checked ??= (async () => {
    const { prefix } = y;
    const rows = await query<{ t: string; c: string }>(
      y,
      "SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?, ?)",
      [`${prefix}url`, `${prefix}log`],
    );
    const missing = Object.entries(NEEDED).flatMap(([t, columns]) => columns.filter((c) => !rows.some((r) => r.t === `${prefix}${t}` && r.c === c)).map((c) => `${prefix}${t}.${c}`));
    if (missing.length > 0) {
      // Only a number is quoted back (YOURLS writes one), not whatever else the row holds.
      const version = (await query<{ v: string }>(y, `SELECT option_value AS v FROM \`${prefix}options\` WHERE option_name = 'db_version'`).catch(() => [])).filter((r) => /^\d{1,6}$/.test(String(r.v)));
      throw new SourceError(
        `${y.where} is not a YOURLS database this importer knows (prefix "${prefix}"${version[0] ? `, db_version ${version[0].v}` : ""}): missing ${missing.join(", ")}. Check --prefix, or upgrade YOURLS to 1.7 or later first.`,
        "schema",
      );
    }
  })());
}

async function* links(y: Yourls): AsyncGenerator<SourceLink[]> {
  await check(y);
  let after = "";
  for (;;) {
    // Keyset paging in the column's own (binary) order: stable while YOURLS goes on running.
    const rows = await query<{ keyword: string; url: string; title: string | null; created: string; clicks: number | string }>(
      y,
      `SELECT keyword, url, title, DATE_FORMAT(\`timestamp\`, '%Y-%m-%d %H:%i:%s') AS created, clicks FROM ${table(y, "url")} WHERE keyword > ? ORDER BY keyword LIMIT ${LINKS_PER_PAGE}`,
      [after],
    );
    if (rows.length === 0) return;
    yield rows.map(toLink);
    after = rows[rows.length - 1]!.keyword;
    if (rows.length < LINKS_PER_PAGE) return;
  }
}

async function* history(y: Yourls, ...[links, cursors]: Parameters<NonNullable<ImportSource["history"]>>): AsyncGenerator<HistoryPage> {
  await check(y);
  // A cursor per link (the last click_id here), so that a link imported by a later run (after
  // a skip, say) still gets all its clicks, and a re-run only the newer ones. The log is read
  // link by link (its shorturl index), not in click order: a page then holds the visits of a
  // few hundred links, whose rollup rows lie together, and a transaction writes a few pages of
  // the database instead of one for each visit.
  const done = await cursors.all("visits ");
  const idOf = new Map([...links].map(([key, { id }]) => [key, id]));
  let at: [string, number] = ["", 0];
  for (;;) {
    const rows = await query<{ id: number | string; at: string; keyword: string; referrer: string; ua: string; country: string }>(
      y,
      `SELECT click_id AS id, DATE_FORMAT(click_time, '%Y-%m-%d %H:%i:%s') AS at, shorturl AS keyword, referrer, user_agent AS ua, country_code AS country
       FROM ${table(y, "log")} WHERE shorturl > ? OR (shorturl = ? AND click_id > ?) ORDER BY shorturl, click_id LIMIT ${VISITS_PER_PAGE}`,
      [at[0], at[0], at[1]],
    );
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    at = [last.keyword, Number(last.id)];
    const fresh = rows.filter((r) => {
      const id = idOf.get(r.keyword);
      return id === undefined || Number(r.id) > Number(done.get(`visits ${id}`) ?? 0);
    });
    const moved = new Map<string, string>();
    for (const r of fresh) {
      const id = idOf.get(r.keyword);
      if (id !== undefined) moved.set(`visits ${id}`, String(r.id));
    }
    yield { cursors: [...moved], visits: fresh.map(toVisit) };
    if (rows.length < VISITS_PER_PAGE) return;
  }
}

function toLink(r: { keyword: string; url: string; title: string | null; created: string; clicks: number | string }): SourceLink {
  return {
    key: r.keyword, domain: null, code: r.keyword, url: r.url, createdAt: sourceTime(r.created) ?? 0, tags: [], expiresAt: null, validFrom: null, maxClicks: null,
    // YOURLS stores the URL as the title of a link it found none for: that is no title.
    title: r.title === null || r.title === r.url ? null : r.title, disabledBecause: null, dropped: [], clicks: Number(r.clicks),
  };
}

function toVisit(r: { at: string; keyword: string; referrer: string; ua: string; country: string }): SourceVisit {
  return {
    key: r.keyword, ts: sourceTime(r.at) ?? 0,
    // YOURLS writes the word "direct" when there was no Referer, and "-" when there was no User-Agent.
    referrer: r.referrer === "direct" ? null : r.referrer, userAgent: r.ua === "-" ? null : r.ua, country: r.country, visitedUrl: null,
  };
}

// What the server said is never quoted, nor used to choose the words (the dashboard's admin must
// not learn what answers on a port): the kind of failure, from the error's code and number only.
// MySQL's server errors are numbered 1000 to 1999 (their text is the server's); 1044, 1045 and
// 1129 to 1131 refuse the user or the host. Errors Bun raises itself have their own text.
const REFUSED_ERRNO = new Set([1044, 1045, 1129, 1130, 1131]);

function sourceError(err: unknown, where: string): SourceError {
  const { code = "", errno } = err as { code?: string; errno?: number };
  const named = [code, errno].filter((x) => x !== undefined && x !== "").join(" ");
  const which = named === "" ? "" : ` (${named})`;
  const fromServer = typeof errno === "number" && errno >= 1000 && errno < 2000;
  if (fromServer && REFUSED_ERRNO.has(errno)) return new SourceError(`the YOURLS database ${where} refused the user${which}`, "refused");
  const own = fromServer ? "" : err instanceof Error ? err.message : String(err);
  if (!fromServer && /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|connect|closed|timeout/i.test(`${code} ${own}`)) return new SourceError(`the YOURLS database ${where} cannot be reached${which}`, "unreachable");
  return new SourceError(`the YOURLS database ${where} failed${which}`, "failed");
}
