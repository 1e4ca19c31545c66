// The opt-outs' rules (src/visits/opt-outs.ts) and flags (src/config/opt-outs.ts): which queries
// name the parameter, what is left of them, which requests --do-not-track skip keeps out, and the
// flags' checks (docs/statistics.md: Not counting some clicks).

import { describe, expect, test } from "bun:test";
import { ConfigError, parseArgs } from "../../src/config.ts";
import { createClickOptOuts, hasParam, noCountAddresses, NO_OPT_OUTS, withoutParam } from "../../src/visits/opt-outs.ts";

const headers = (h: Record<string, string>) => ({ header: (name: string) => h[name] ?? null });

describe("the parameter", () => {
  test("named alone, with a value or empty, anywhere in the query; never as part of another name or a value", () => {
    for (const q of ["nocount", "nocount=1", "nocount=", "a=1&nocount", "a=1&nocount=x&b=2", "xnocount=1&nocount"]) expect(hasParam(q, "nocount")).toBe(true);
    for (const q of ["", "nocounts", "xnocount", "a=nocount", "a=1&b=nocount&c", "nocoun", "no-count"]) expect(hasParam(q, "nocount")).toBe(false);
  });

  test("taken out with every repeat; the rest kept as written, in order", () => {
    expect(withoutParam("nocount", "nocount")).toBe("");
    expect(withoutParam("a=%20x&nocount=1&b=2&nocount", "nocount")).toBe("a=%20x&b=2");
    expect(withoutParam("nocounts=1&a=nocount", "nocount")).toBe("nocounts=1&a=nocount");
  });

  test("an instance without it leaves every query as it is and skips nothing", () => {
    const none = createClickOptOuts(NO_OPT_OUTS);
    expect(none.query("nocount=1&a")).toBe("nocount=1&a");
    expect(none.skips("nocount", headers({ dnt: "1", "sec-gpc": "1" }))).toBeNull();
    expect(none.counts()).toEqual({ param: 0, dnt: 0 });
  });
});

describe("a click's reason", () => {
  test("the parameter first, then DNT: 1 or Sec-GPC: 1 under skip; each counted once by its reason", () => {
    const optOuts = createClickOptOuts({ noCountFrom: "", noCountParam: "nocount", doNotTrack: "skip" });
    expect(optOuts.query("a=1&nocount")).toBe("a=1");
    expect(optOuts.skips("nocount", headers({ dnt: "1" }))).toBe("param");
    expect(optOuts.skips("", headers({ dnt: "1" }))).toBe("dnt");
    expect(optOuts.skips("a=1", headers({ "sec-gpc": "1" }))).toBe("dnt");
    expect(optOuts.skips("a=1", headers({ dnt: "0", "sec-gpc": "0" }))).toBeNull();
    expect(optOuts.skips("", headers({}))).toBeNull();
    expect(optOuts.counts()).toEqual({ param: 1, dnt: 2 });
  });

  test("under count (the default), DNT and Sec-GPC keep nothing out", () => {
    const optOuts = createClickOptOuts({ noCountFrom: "", noCountParam: null, doNotTrack: "count" });
    expect(optOuts.skips("", headers({ dnt: "1", "sec-gpc": "1" }))).toBeNull();
  });
});

describe("the addresses", () => {
  test("none named: no check at all; named: IPv4, IPv6, mapped, the named ranges", () => {
    expect(noCountAddresses("")).toBeNull();
    const ranges = noCountAddresses("203.0.113.0/24, 2001:db8::/32,private")!;
    for (const a of ["203.0.113.5", "2001:db8::1", "::ffff:203.0.113.9", "10.1.2.3", "192.168.0.7"]) expect(ranges.contains(a)).toBe(true);
    for (const a of ["203.0.114.1", "2001:db9::1", "8.8.8.8", "127.0.0.1", "unknown"]) expect(ranges.contains(a)).toBe(false);
  });
});

describe("the flags", () => {
  test("--no-count-from is repeatable and joins; SHORTENER_NO_COUNT_FROM reads it too; a bad entry names the flag", () => {
    expect(parseArgs(["--no-count-from", "10.0.0.0/8", "--no-count-from", "::1"], {}).config.optOuts.noCountFrom).toBe("10.0.0.0/8,::1");
    expect(parseArgs([], { SHORTENER_NO_COUNT_FROM: "loopback" }).config.optOuts.noCountFrom).toBe("loopback");
    expect(() => parseArgs(["--no-count-from", "10.0.0.0/33"], {})).toThrow(ConfigError);
    expect(() => parseArgs(["--no-count-from", "lan"], {})).toThrow("--no-count-from: not an IP or CIDR: lan");
    expect(() => parseArgs([], { SHORTENER_NO_COUNT_FROM: "x" })).toThrow("SHORTENER_NO_COUNT_FROM: not an IP or CIDR: x");
  });

  test("--no-count-param: a name that needs no encoding, or off; --do-not-track: count or skip", () => {
    expect(parseArgs(["--no-count-param", "nocount"], {}).config.optOuts.noCountParam).toBe("nocount");
    expect(parseArgs(["--no-count-param", "off"], {}).config.optOuts.noCountParam).toBeNull();
    expect(() => parseArgs(["--no-count-param", "no count"], {})).toThrow('--no-count-param: expected a query parameter name');
    expect(() => parseArgs(["--no-count-param", "a=b"], {})).toThrow(ConfigError);
    expect(parseArgs(["--do-not-track", "skip"], {}).config.optOuts.doNotTrack).toBe("skip");
    expect(parseArgs([], { SHORTENER_DO_NOT_TRACK: "skip" }).config.optOuts.doNotTrack).toBe("skip");
    expect(() => parseArgs(["--do-not-track", "honour"], {})).toThrow("--do-not-track: expected count or skip, got honour");
  });
});
