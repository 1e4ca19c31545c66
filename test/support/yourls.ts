// A YOURLS database for the importer tests: YOURLS's own tables and generated rows.
//
// The CREATE TABLE statements are YOURLS's, verbatim from includes/functions-install.php,
// yourls_create_sql_tables() (github.com/YOURLS/YOURLS master b8c7882e34309aab63ac0361b4df19ea5dce6392,
// the same in tag 1.10.4 ef695ea1); copied from /work/notes/importers-research.md §1.2, PHP string
// concatenation removed, one PHP string per line. The options rows are yourls_initialize_options().
//
// The rows are generated inside MariaDB (INSERT … SELECT over the SEQUENCE engine's seq_1_to_N),
// so 1,000,000 log rows take seconds. They are deterministic: every "random" choice is CRC32 of
// (seed, purpose, sequence number). Times are written as YOURLS writes them: 'Y-m-d H:i:s' strings
// of the UTC wall clock (url.timestamp is a TIMESTAMP, log.click_time a DATETIME).

import type { SQL } from "bun";

export const YOURLS_VERSION = "1.10.4";
export const YOURLS_DB_VERSION = "507";

/** The window of the generated data: links are created in it, and clicked after their creation. */
export const FIRST_DAY = "2023-07-01 00:00:00";
export const LAST_DAY = "2025-07-01 00:00:00";

export type YourlsLink = { keyword: string; url: string; title?: string | null; timestamp?: string; clicks?: number };

export type FillOptions = {
  prefix?: string;
  /** Generated url rows: mostly YOURLS's base36 keywords (1, 2, … a, … 10, …), every tenth a custom word. */
  links: number;
  /**
   * Log rows of links, in time order over the window: most go to recently created links, some to
   * a few old popular ones; every 25th generated link gets none (and a few more by chance).
   */
  visits: number;
  /** Log rows whose keyword is in no url row (the link was deleted or renamed); default 0. */
  orphans?: number;
  /** Links whose url.clicks disagrees with their log rows, as YOURLS's counter can; default 0. */
  clicksDiffer?: number;
  /** Links inserted before the generated ones and visited like them (clicks, if given, is kept). */
  extra?: YourlsLink[];
  seed?: number;
};

/** What the source holds afterwards, all url rows counted (also those there before the fill). */
export type FilledYourls = {
  links: number;
  /** Log rows that join a url row. */
  visits: number;
  orphans: number;
  linksWithoutVisits: number;
  /** Links whose url.clicks is not the number of their log rows. */
  clicksDiffer: number;
  firstClick: string;
  lastClick: string;
};

export type SourceCounts = {
  /** keyword → url.clicks and its log rows (compared byte-exact, as YOURLS's utf8mb4_bin does). */
  links: Map<string, { clicks: number; visits: number }>;
  visits: number;
  orphans: number;
};

function tables(prefix: string) {
  if (!/^[A-Za-z0-9_]*$/.test(prefix)) throw new Error(`YOURLS table prefix: letters, digits and _ only, not ${JSON.stringify(prefix)}`);
  return { url: `${prefix}url`, options: `${prefix}options`, log: `${prefix}log` };
}

/** YOURLS's tables and the options rows its install writes (the sample links it also adds are left out). */
export async function createYourlsTables(sql: SQL, prefix = "yourls_"): Promise<void> {
  const t = tables(prefix);
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS \`${t.url}\` (
    \`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
    \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    \`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL,
    \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(),
    \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,
    \`clicks\` int(10) unsigned NOT NULL,
    PRIMARY KEY (\`keyword\`),
    KEY \`ip\` (\`ip\`),
    KEY \`timestamp\` (\`timestamp\`),
    KEY \`url_idx\` (\`url\`(30))
    ) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;`);
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS \`${t.options}\` (
    \`option_id\` bigint(20) unsigned NOT NULL auto_increment,
    \`option_name\` varchar(64) COLLATE utf8mb4_unicode_ci NOT NULL default '',
    \`option_value\` longtext COLLATE utf8mb4_unicode_ci NOT NULL,
    PRIMARY KEY  (\`option_id\`,\`option_name\`),
    KEY \`option_name\` (\`option_name\`)
    ) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`);
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS \`${t.log}\` (
    \`click_id\` int(11) NOT NULL auto_increment,
    \`click_time\` datetime NOT NULL,
    \`shorturl\` varchar(100) BINARY NOT NULL,
    \`referrer\` varchar(200) NOT NULL,
    \`user_agent\` varchar(255) NOT NULL,
    \`ip_address\` varchar(41) NOT NULL,
    \`country_code\` char(2) NOT NULL,
    PRIMARY KEY  (\`click_id\`),
    KEY \`shorturl\` (\`shorturl\`)
    ) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`);
  // yourls_initialize_options(): yourls_update_option() stores scalars as they are and arrays
  // PHP-serialized (yourls_maybe_serialize), so active_plugins = array() is 'a:0:{}'.
  await sql.unsafe(`INSERT INTO \`${t.options}\` (option_name, option_value) VALUES ('version', ?), ('db_version', ?), ('next_id', '1'), ('active_plugins', 'a:0:{}')`, [YOURLS_VERSION, YOURLS_DB_VERSION]);
}

/** Adds url rows as given (a test's tricky keywords); they have no log rows unless fillYourls follows. */
export async function extraLinks(sql: SQL, prefix: string, rows: YourlsLink[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.flatMap((r) => [r.keyword, r.url, r.title ?? null, r.timestamp ?? FIRST_DAY, "127.0.0.1", r.clicks ?? 0]);
  await sql.unsafe(`INSERT INTO \`${tables(prefix).url}\` (keyword, url, title, timestamp, ip, clicks) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`, values);
}

// Lookup lists, repeated to weight them, picked per row with ELT(1 + hash % n, …).
const DIRECT = "direct"; // what YOURLS writes when there is no Referer header
const REFERRERS = [
  ...Array<string>(8).fill(DIRECT),
  "https://www.google.com/", "https://www.google.com/", "https://www.google.de/",
  "https://t.co/", "https://www.facebook.com/", "https://l.facebook.com/", "https://www.linkedin.com/",
  "https://news.ycombinator.com/", "https://www.reddit.com/r/programming/comments/1abcde/a_post/",
  "https://duckduckgo.com/", "https://www.bing.com/", "android-app://com.google.android.gm/",
  "https://mail.google.com/", "https://example.com/blog/2024/a-post-with-a-link",
  // YOURLS cuts the Referer at 200 characters
  `https://search.example.com/results?q=${"very+long+query+".repeat(12)}`.slice(0, 200),
];
const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
];
const BOTS = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "Twitterbot/1.0",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "curl/8.5.0",
  "python-requests/2.31.0",
  "-", // YOURLS's value when there is no User-Agent header
];
const USER_AGENTS = [...BROWSERS, ...BROWSERS, ...BROWSERS, ...BOTS];
// '' is YOURLS's "unknown" (no GeoIP match).
const COUNTRIES = ["US", "US", "US", "US", "DE", "DE", "GB", "GB", "FR", "IN", "BR", "JP", "CA", "NL", "ES", "IT", "PL", "AU", "SE", "MX", "", ""];
const CUSTOM_WORDS = ["launch", "pricing", "webinar", "careers", "podcast", "newsletter", "release", "summer"]; // 6+ letters + a number: never a base36 id we generate
const ORPHAN_WORDS = ["deleted", "renamed", "oldpromo", "campaign"];

const quote = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
const elt = (index: string, list: string[]) => `ELT(${index}, ${list.map(quote).join(", ")})`;
const pick = (hash: string, list: string[]) => elt(`1 + ${hash} % ${list.length}`, list);
/** A deterministic "random" 32-bit number for (seed, purpose, of). */
const hash = (seed: number, purpose: string, of: string) => `CRC32(CONCAT(${seed}, '${purpose}', ${of}))`;
const unit = (h: string) => `(${h} / 4294967296)`; // uniform in [0, 1)

/** Generated links and their visits (see FillOptions), on the tables of createYourlsTables. */
export async function fillYourls(sql: SQL, options: FillOptions): Promise<FilledYourls> {
  // One session: the helpers are TEMPORARY tables (an importer reading alongside never sees them)
  // in memory (lookups per log row are the cost; MEMORY's hash index beats InnoDB's B-tree).
  const session = await sql.reserve();
  try {
    await session.unsafe("SET SESSION max_heap_table_size = 1024 * 1024 * 1024");
    await fill(session, options);
  } finally {
    await session.unsafe("DROP TEMPORARY TABLE IF EXISTS fill_new, fill_targets, fill_created, fill_hours, fill_visitors").catch(() => {});
    await session.release();
  }
  return summary(sql, options.prefix ?? "yourls_");
}

async function fill(sql: SQL, options: FillOptions): Promise<void> {
  const { prefix = "yourls_", links, visits, orphans = 0, clicksDiffer = 0, extra = [], seed = 1 } = options;
  const t = tables(prefix);
  const keywordColumn = "keyword VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL"; // url.keyword's
  await extraLinks(sql, prefix, extra);

  // Keywords as YOURLS makes them: base36 of an increasing id, skipping those already taken (by
  // extra links: "abc" is id 13368); every tenth a custom word. Created in id order over the window.
  const [{ taken }] = await sql.unsafe(`SELECT COUNT(*) AS taken FROM \`${t.url}\``);
  const ids = links + Number(taken);
  const linkSpan = `TIMESTAMPDIFF(SECOND, '${FIRST_DAY}', '${LAST_DAY}' - INTERVAL 30 DAY)`;
  await sql.unsafe(`CREATE TEMPORARY TABLE fill_new (seq INT PRIMARY KEY, ${keywordColumn}, UNIQUE KEY (keyword)) ENGINE=MEMORY`);
  await sql.unsafe(`INSERT INTO fill_new SELECT seq, keyword FROM (
      SELECT seq, IF(seq % 10 = 7, CONCAT(${pick("(seq DIV 10)", CUSTOM_WORDS)}, seq), LOWER(CONV(seq, 10, 36))) AS keyword FROM seq_1_to_${ids}
    ) c WHERE keyword NOT IN (SELECT keyword FROM \`${t.url}\`) ORDER BY seq LIMIT ${links}`);
  await sql.unsafe(`INSERT INTO \`${t.url}\` (keyword, url, title, timestamp, ip, clicks)
    SELECT keyword,
      CASE seq % 10
        WHEN 0 THEN CONCAT('https://www.youtube.com/watch?v=', LEFT(SHA1(seq), 11))
        WHEN 1 THEN CONCAT('https://github.com/acme/widgets/issues/', seq)
        WHEN 2 THEN CONCAT('https://example.com/blog/', 2020 + seq % 6, '/post-', seq, '?utm_source=newsletter&utm_medium=email&utm_campaign=spring')
        WHEN 3 THEN CONCAT('https://de.wikipedia.org/wiki/Stra%C3%9Fe_', seq)
        WHEN 4 THEN CONCAT('https://ja.wikipedia.org/wiki/東京_', seq)
        WHEN 5 THEN CONCAT('https://docs.google.com/document/d/', SHA1(seq), '/edit#heading=h.', seq)
        WHEN 6 THEN CONCAT('http://intranet.example.org:8080/reports?id=', seq, '&format=pdf')
        WHEN 7 THEN CONCAT('https://shop.example.net/p/', seq, IF(seq % 100 = 7, CONCAT('?', REPEAT('filter=size&', 150)), ''))
        ELSE 'https://example.com/' -- one URL behind many keywords (YOURLS_UNIQUE_URLS off)
      END,
      CASE seq % 13 WHEN 0 THEN NULL WHEN 1 THEN ''
        ELSE CONCAT(${pick("seq", ["Release notes", "Café & Crème – Menü", "東京の天気予報", "Quarterly report", "🚀 Launch day", "Widgets, Inc."])}, ' #', seq) END,
      '${FIRST_DAY}' + INTERVAL FLOOR(seq * ${linkSpan} / ${ids + 1}) SECOND,
      ${pick("seq", ["127.0.0.1", "203.0.113.7", "2001:db8::1", "198.51.100.23"])},
      0
    FROM fill_new`);

  // Visit targets 1..n in order of creation: the rows there before (extra ones) and the generated
  // links but every 25th, which stay unvisited.
  await sql.unsafe(`CREATE TEMPORARY TABLE fill_targets (t INT AUTO_INCREMENT PRIMARY KEY, ${keywordColumn}, created DATETIME NOT NULL) ENGINE=MEMORY`);
  await sql.unsafe(`INSERT INTO fill_targets (keyword, created)
    SELECT u.keyword, u.timestamp FROM \`${t.url}\` u LEFT JOIN fill_new f ON f.keyword = u.keyword
    WHERE f.seq IS NULL OR f.seq % 25 <> 0 ORDER BY u.timestamp, u.keyword`);
  // The log's window: from the first link's creation (FIRST_DAY if there is none) to LAST_DAY.
  const [{ targets, first, seconds }] = await sql.unsafe(`SELECT COUNT(*) AS targets, CAST(COALESCE(MIN(created), '${FIRST_DAY}') AS CHAR) AS first,
    TIMESTAMPDIFF(SECOND, COALESCE(MIN(created), '${FIRST_DAY}'), '${LAST_DAY}') AS seconds FROM fill_targets`);
  const window = Number(seconds);
  if (visits > 0 && (Number(targets) === 0 || window <= 0)) throw new Error(`fillYourls: ${visits} visits need links created before ${LAST_DAY}`);

  // Hour h of the window → m, the number of targets created by then (targets are numbered in
  // order of creation): a visit in hour h goes to a target ≤ m, so no click precedes its link.
  // A running SUM (MariaDB's running MAX is quadratic) over the targets created per hour.
  await sql.unsafe(`CREATE TEMPORARY TABLE fill_created (h INT PRIMARY KEY, n INT NOT NULL) ENGINE=MEMORY`);
  await sql.unsafe(`INSERT INTO fill_created SELECT CEIL(TIMESTAMPDIFF(SECOND, '${first}', created) / 3600), COUNT(*) FROM fill_targets GROUP BY 1`);
  await sql.unsafe(`CREATE TEMPORARY TABLE fill_hours (h INT PRIMARY KEY, m INT NOT NULL) ENGINE=MEMORY`);
  await sql.unsafe(`INSERT INTO fill_hours SELECT q.seq, SUM(COALESCE(c.n, 0)) OVER (ORDER BY q.seq ROWS UNBOUNDED PRECEDING)
    FROM seq_0_to_${Math.ceil(window / 3600)} q LEFT JOIN fill_created c ON c.h = q.seq`);

  // Visitors, each with one IP address, user agent and country: a visitor's clicks look alike
  // (and a UA parser's cache has something to do). About 8 visits per visitor.
  const visitors = Math.max(50, Math.floor(visits / 8));
  await sql.unsafe(`CREATE TEMPORARY TABLE fill_visitors (v INT PRIMARY KEY, ip VARCHAR(41) CHARACTER SET ascii NOT NULL, ua TINYINT UNSIGNED NOT NULL, country TINYINT UNSIGNED NOT NULL) ENGINE=MEMORY`);
  await sql.unsafe(`INSERT INTO fill_visitors SELECT seq,
      IF(seq % 7 = 3, CONCAT('2a02:', LOWER(HEX(4096 + seq % 61440)), ':', LOWER(HEX(seq DIV 7 % 65536)), '::', LOWER(HEX(1 + seq % 65535))),
        CONCAT(${pick("seq", ["24", "31", "46", "62", "81", "89", "93", "109", "151", "176", "185", "203"])}, '.', seq DIV 12 % 256, '.', seq DIV 3072 % 256, '.', 1 + seq % 254)),
      1 + ${hash(seed, "ua", "seq")} % ${USER_AGENTS.length}, 1 + ${hash(seed, "country", "seq")} % ${COUNTRIES.length}
    FROM seq_0_to_${visitors - 1}`);

  // The log in time order (click_id follows click_time, as in a real log): row seq at an even
  // pace over the window. Most visits go to recent links (a link's clicks come soon after it is
  // shared), one in five to an old one by u³ (a few links stay popular). The orphans are spread
  // evenly among them: a keyword no url row has (deleted or renamed links).
  const rows = visits + orphans;
  if (rows > 0) {
    const u = unit(hash(seed, "link", "s.seq"));
    const isOrphan = `FLOOR(s.seq * ${orphans} / ${rows}) > FLOOR((s.seq - 1) * ${orphans} / ${rows})`;
    // The index built once afterwards, not row by row: about a second less for 1,000,000 rows.
    await sql.unsafe(`ALTER TABLE \`${t.log}\` DROP KEY \`shorturl\``);
    try {
      await sql.unsafe(`INSERT INTO \`${t.log}\` (click_time, shorturl, referrer, user_agent, ip_address, country_code)
        SELECT '${first}' + INTERVAL s.sec SECOND,
          IF(${isOrphan}, CONCAT(${pick("s.seq", ORPHAN_WORDS)}, s.seq % 40), g.keyword),
          ${pick(hash(seed, "referrer", "s.seq"), REFERRERS)}, ${elt("v.ua", USER_AGENTS)}, v.ip, ${elt("v.country", COUNTRIES)}
        FROM (SELECT seq, FLOOR((seq - 1 + ${unit(hash(seed, "time", "seq"))}) * ${window} / ${rows}) AS sec FROM seq_1_to_${rows}) s
        LEFT JOIN fill_hours hr ON hr.h = FLOOR((s.seq - 1) * ${window} / ${rows} / 3600) -- ≤ the hour of s.sec (and cheaper)
        LEFT JOIN fill_targets g ON g.t = IF(${hash(seed, "old", "s.seq")} % 5 = 0, 1 + FLOOR(hr.m * POW(${u}, 3)), hr.m - FLOOR(hr.m * POW(${u}, 2)))
        JOIN fill_visitors v ON v.v = ${hash(seed, "visitor", "s.seq")} % ${visitors}
        ORDER BY s.seq`);
    } finally {
      await sql.unsafe(`ALTER TABLE \`${t.log}\` ADD KEY \`shorturl\` (\`shorturl\`)`); // as YOURLS creates it
    }
  }

  // url.clicks: the log rows, then some off by a little (logging off, a failed log insert, an edit).
  await sql.unsafe(`UPDATE \`${t.url}\` u JOIN (SELECT shorturl, COUNT(*) AS n FROM \`${t.log}\` GROUP BY shorturl) c ON c.shorturl = u.keyword SET u.clicks = c.n`);
  if (clicksDiffer > 0) {
    const h = (purpose: string) => hash(seed, purpose, "keyword");
    await sql.unsafe(`UPDATE \`${t.url}\` SET clicks = IF(${h("less")} % 3 = 0 AND clicks > 0, clicks - 1, clicks + 1 + ${h("more")} % 50)
      ORDER BY ${h("differ")}, keyword LIMIT ${clicksDiffer}`);
  }
  for (const link of extra.filter((l) => l.clicks !== undefined)) {
    await sql.unsafe(`UPDATE \`${t.url}\` SET clicks = ? WHERE keyword = ?`, [link.clicks, link.keyword]);
  }
  // YOURLS's next id to try for a keyword
  const [{ last }] = await sql.unsafe(`SELECT MAX(seq) AS last FROM fill_new`);
  await sql.unsafe(`UPDATE \`${t.options}\` SET option_value = ? WHERE option_name = 'next_id'`, [String(Number(last ?? 0) + 1)]);
}

async function summary(sql: SQL, prefix: string): Promise<FilledYourls> {
  const source = await expectedFromSource(sql, prefix);
  const counts = [...source.links.values()];
  const [times] = await sql.unsafe(`SELECT CAST(MIN(click_time) AS CHAR) AS first, CAST(MAX(click_time) AS CHAR) AS last FROM \`${tables(prefix).log}\``);
  return {
    links: source.links.size,
    visits: source.visits,
    orphans: source.orphans,
    linksWithoutVisits: counts.filter((c) => c.visits === 0).length,
    clicksDiffer: counts.filter((c) => c.clicks !== c.visits).length,
    firstClick: times.first ?? "",
    lastClick: times.last ?? "",
  };
}

/** Per-link clicks and log rows, read from the source itself: what an import must end up with. */
export async function expectedFromSource(sql: SQL, prefix = "yourls_"): Promise<SourceCounts> {
  const t = tables(prefix);
  // The log counted per keyword first (one pass over its index), then joined: fast at 100k links.
  const rows: { keyword: string; clicks: number | string; visits: number | string }[] = await sql.unsafe(
    `SELECT u.keyword, u.clicks, COALESCE(c.n, 0) AS visits FROM \`${t.url}\` u LEFT JOIN (SELECT shorturl, COUNT(*) AS n FROM \`${t.log}\` GROUP BY shorturl) c ON c.shorturl = u.keyword`,
  );
  const links = new Map(rows.map((r) => [r.keyword, { clicks: Number(r.clicks), visits: Number(r.visits) }]));
  const visits = rows.reduce((sum, r) => sum + Number(r.visits), 0);
  const [{ logRows }] = await sql.unsafe(`SELECT COUNT(*) AS logRows FROM \`${t.log}\``);
  return { links, visits, orphans: Number(logRows) - visits };
}
