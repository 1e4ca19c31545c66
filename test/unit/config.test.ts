// Flags and environment → Config.

import { describe, expect, test } from "bun:test";
import { ConfigError, parseArgs } from "../../src/config.ts";
import { pickLanguage } from "../../src/lang.ts";
import { addDays, daysBetween, isDay } from "../../src/util/day.ts";
import { Lru } from "../../src/util/lru.ts";

describe("config", () => {
  test("defaults", () => {
    const { config } = parseArgs([], {});
    expect(config).toEqual({
      port: 8080, host: "0.0.0.0", dbPath: "shortener.db", baseUrl: null, trustProxy: "", geoipDb: null, createRateLimit: 60,
      createAccess: "public", statsAccess: "public", blocklist: null, metricsAllow: "loopback", allowLoopbackDestinations: false, webhookAllowPrivate: false, importAllowPrivate: false, fetchTitles: "off", rootRedirect: null, notFoundRedirect: null, logFormat: "text",
      oidc: null, oidcOnly: false, authHeader: null, compat: { yourls: true, kutt: true, shlink: true }, corsOrigins: [],
      allowSchemes: new Set(), qrLogo: null, optOuts: { noCountFrom: "", noCountParam: null, doNotTrack: "count" }, orphanVisits: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test("--compat: a comma list of yourls, kutt and shlink, or off; anything else exits with the flag named", () => {
    expect(parseArgs(["--compat", "kutt"], {}).config.compat).toEqual({ yourls: false, kutt: true, shlink: false });
    expect(parseArgs(["--compat=off"], {}).config.compat).toEqual({ yourls: false, kutt: false, shlink: false });
    expect(parseArgs([], { SHORTENER_COMPAT: "YOURLS" }).config.compat).toEqual({ yourls: true, kutt: false, shlink: false });
    expect(parseArgs(["--compat", "yourls,shlink"], {}).config.compat).toEqual({ yourls: true, kutt: false, shlink: true });
    expect(() => parseArgs(["--compat", "yourls,bitly"], {})).toThrow('--compat: expected yourls, kutt, shlink (comma-separated) or off, got "bitly"');
  });

  test("--cors-origin: exact origins (normalized as browsers send them), or * alone; none by default (docs/shlink-api.md: CORS)", () => {
    expect(parseArgs(["--cors-origin", "https://app.shlink.io"], {}).config.corsOrigins).toEqual(["https://app.shlink.io"]);
    expect(parseArgs([], { SHORTENER_CORS_ORIGIN: "HTTPS://App.Shlink.io:443/, http://127.0.0.1:3000" }).config.corsOrigins).toEqual(["https://app.shlink.io", "http://127.0.0.1:3000"]);
    expect(parseArgs(["--cors-origin", "*"], {}).config.corsOrigins).toBe("*");
    expect(parseArgs(["--cors-origin", ""], {}).config.corsOrigins).toEqual([]);
    expect(() => parseArgs(["--cors-origin", "https://a.example,*"], {})).toThrow("--cors-origin: * stands alone");
    expect(() => parseArgs(["--cors-origin", "https://*.example.org"], {})).toThrow("--cors-origin: no wildcards");
    expect(() => parseArgs(["--cors-origin", "https://a.example/web"], {})).toThrow("--cors-origin: an origin is scheme://host[:port] only");
    expect(() => parseArgs([], { SHORTENER_CORS_ORIGIN: "app.shlink.io" })).toThrow('SHORTENER_CORS_ORIGIN: expected an origin such as https://app.shlink.io, got "app.shlink.io"');
    expect(() => parseArgs(["--cors-origin", "null"], {})).toThrow("--cors-origin: expected an origin");
  });

  test("flags win over SHORTENER_* env; both forms of value", () => {
    const { config } = parseArgs(["--port=9000", "--base-url", "https://s.example/"], { SHORTENER_PORT: "7000", SHORTENER_CREATE_RATE_LIMIT: "0", SHORTENER_TRUST_PROXY: "10.0.0.1" });
    expect(config.port).toBe(9000);
    expect(config.baseUrl).toBe("https://s.example");
    expect(config.createRateLimit).toBe(0);
    expect(config.trustProxy).toBe("10.0.0.1");
  });

  test("--import-allow-private, or SHORTENER_IMPORT_ALLOW_PRIVATE=1, lets the dashboard's import reach special-purpose addresses", () => {
    expect(parseArgs(["--import-allow-private"], {}).config.importAllowPrivate).toBe(true);
    expect(parseArgs([], { SHORTENER_IMPORT_ALLOW_PRIVATE: "1" }).config.importAllowPrivate).toBe(true);
    expect(parseArgs([], { SHORTENER_IMPORT_ALLOW_PRIVATE: "0" }).config.importAllowPrivate).toBe(false);
  });

  test("--fetch-titles, or SHORTENER_FETCH_TITLES: off (the default), on or any; anything else names where it came from", () => {
    expect(parseArgs(["--fetch-titles", "on"], {}).config.fetchTitles).toBe("on");
    expect(parseArgs(["--fetch-titles=any"], {}).config.fetchTitles).toBe("any");
    expect(parseArgs([], { SHORTENER_FETCH_TITLES: "on" }).config.fetchTitles).toBe("on");
    expect(parseArgs(["--fetch-titles", "off"], { SHORTENER_FETCH_TITLES: "on" }).config.fetchTitles).toBe("off");
    expect(() => parseArgs(["--fetch-titles", "yes"], {})).toThrow(/^--fetch-titles: expected off, on or any, got yes$/);
    expect(() => parseArgs([], { SHORTENER_FETCH_TITLES: "1" })).toThrow(/^SHORTENER_FETCH_TITLES: expected off, on or any/);
  });

  test("an error names where the bad value came from: the flag or the environment variable", () => {
    expect(() => parseArgs([], { SHORTENER_PORT: "xyz" })).toThrow(/^SHORTENER_PORT: expected a whole number/);
    expect(() => parseArgs(["--port", "xyz"], {})).toThrow(/^--port: expected a whole number/);
    expect(() => parseArgs(["--port", "xyz"], { SHORTENER_PORT: "1" })).toThrow(/^--port:/); // the flag won
    expect(() => parseArgs([], { SHORTENER_BASE_URL: "ftp://x" })).toThrow(/^SHORTENER_BASE_URL:/);
    expect(() => parseArgs([], { SHORTENER_TRUST_PROXY: "nope" })).toThrow(/^SHORTENER_TRUST_PROXY:/);
  });

  test("--help and --version skip every check", () => {
    expect(parseArgs(["--version", "--nope"], { SHORTENER_PORT: "xyz" }).version).toBe(true);
    expect(parseArgs(["-h"], { SHORTENER_DB: "/no/such/x.db" }, () => false).help).toBe(true);
  });

  test("--db in a folder that does not exist is refused; the default paths are not checked", () => {
    const missing = () => false;
    expect(() => parseArgs(["--db", "/typo/dir/x.db"], {}, missing)).toThrow(/^--db: the folder \/typo\/dir does not exist/);
    expect(() => parseArgs([], { SHORTENER_DB: "/typo/x.db" }, missing)).toThrow(/^SHORTENER_DB:/);
    expect(parseArgs([], { STATE_DIRECTORY: "/var/lib/shortener" }, missing).config.dbPath).toBe("/var/lib/shortener/shortener.db");
    expect(parseArgs([], {}, missing).config.dbPath).toBe("shortener.db");
  });

  test("systemd's STATE_DIRECTORY decides the default db path; --db overrides", () => {
    expect(parseArgs([], { STATE_DIRECTORY: "/var/lib/shortener" }).config.dbPath).toBe("/var/lib/shortener/shortener.db");
    expect(parseArgs(["--db", "/x.db"], { STATE_DIRECTORY: "/var/lib/shortener" }, () => true).config.dbPath).toBe("/x.db");
  });

  test("backup command and its file", () => {
    const parsed = parseArgs(["backup", "/tmp/b.db", "--db", "/x.db"], {}, () => true);
    expect(parsed.command).toBe("backup");
    expect(parsed.commandArgs).toEqual(["/tmp/b.db"]);
  });

  test.each([
    [["--port"], "--port needs a value"],
    [["--port", "65536"], "--port"],
    [["--bogus"], "unknown flag --bogus"],
    [["--base-url", "example.com"], "--base-url"],
    [["--base-url", "https://s.example/?q"], "--base-url"],
    [["--log-format", "xml"], "--log-format"],
  ])("%p is refused", (argv, message) => {
    expect(() => parseArgs(argv, {})).toThrow(ConfigError);
    expect(() => parseArgs(argv, {})).toThrow(message);
  });
});

describe("--allow-schemes (docs/sharing.md: Links into apps)", () => {
  test("lower-cased, a trailing colon and spaces dropped, http and https ignored (they go without saying)", () => {
    const { config } = parseArgs(["--allow-schemes", " TG:, spotify ,http,HTTPS, itms-apps,x.y+z-1 "], {});
    expect([...config.allowSchemes]).toEqual(["tg", "spotify", "itms-apps", "x.y+z-1"]);
    expect([...parseArgs([], { SHORTENER_ALLOW_SCHEMES: "mailto,tel" }).config.allowSchemes]).toEqual(["mailto", "tel"]);
    expect(parseArgs([], {}).config.allowSchemes.size).toBe(0);
    expect(parseArgs(["--allow-schemes", ""], {}).config.allowSchemes.size).toBe(0);
  });

  test.each(["javascript", "JavaScript:", "tg,data", "vbscript", "file", "blob", "about", "chrome", "view-source", "filesystem", "ws", "wss"])("never allowed: %p refuses to start", (value) => {
    expect(() => parseArgs(["--allow-schemes", value], {})).toThrow("is never allowed");
  });

  test.each(["1tg", "tg/x", "t g", "tg,,spotify", "-x", "é"])("not a scheme name: %p refused", (value) => {
    expect(() => parseArgs(["--allow-schemes", value], {})).toThrow("--allow-schemes: not a scheme name");
  });
});

describe("language negotiation", () => {
  test.each([
    [null, "en"],
    ["de-DE,de;q=0.9", "de"],
    ["sv,da;q=0.8", "en"],
    ["en;q=0.5, ja;q=0.9", "ja"],
    ["zh-CN", "zh"],
    ["pt-BR;q=abc, nl;q=0.1", "nl"],
  ])("%p → %p", (header, lang) => {
    expect(pickLanguage(header)).toBe(lang as never);
  });
});

describe("days and cache", () => {
  test("UTC day arithmetic across months and leap days", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2025-12-31", "2026-01-02")).toBe(2);
    expect(isDay("2026-02-29")).toBe(false);
    expect(isDay("2028-02-29")).toBe(true);
  });

  test("Lru evicts the least recently used", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.get("a");
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.size).toBe(2);
  });

  test("Lru keeps an entry that is used while many others come and go", () => {
    const lru = new Lru<number, number>(100);
    lru.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      lru.set(i, i);
      if (i % 40 === 0) expect(lru.get(-1)).toBe(-1);
    }
    expect(lru.get(-1)).toBe(-1);
    expect(lru.get(0)).toBeUndefined();
    // Two generations (lru.ts): between half the capacity and all of it, never more.
    expect(lru.size).toBeLessThanOrEqual(100);
    expect(lru.size).toBeGreaterThanOrEqual(50);
  });
});
