// The flags of `shortener domain` (src/config.ts, src/config/flags.ts): --user belongs to two
// commands; a domain's own redirects come under the instance's flags' names, from its command line
// only (never from the service's SHORTENER_ROOT_REDIRECT).

import { expect, test } from "bun:test";
import { ConfigError, parseArgs } from "../../src/config.ts";

const exists = () => true;

test("--user belongs to key and domain; a domain flag elsewhere is refused naming its command", () => {
  expect(parseArgs(["domain", "allow", "s.example.org", "--user", "alice"], {}, exists).commandFlags).toEqual({ user: "alice" });
  expect(parseArgs(["key", "create", "k", "--user", "alice"], {}, exists).commandFlags).toEqual({ user: "alice" });
  expect(() => parseArgs(["webhook", "list", "--user", "alice"], {}, exists)).toThrow(new ConfigError("--user belongs to the key and domain commands (see --help)"));
  expect(() => parseArgs(["--move-links-to", "x"], {}, exists)).toThrow(new ConfigError("--move-links-to belongs to the domain command (see --help)"));
});

test("domain add takes --root-redirect and --not-found-redirect from its command line, not from the environment", () => {
  const env = { SHORTENER_ROOT_REDIRECT: "https://example.com/instance" };
  expect(parseArgs(["domain", "add", "s.example.org", "--not-found-redirect", "https://example.com/nf"], env, exists).commandFlags).toEqual({ "not-found-redirect": "https://example.com/nf" });
  expect(parseArgs(["domain", "set", "s.example.org", "--root-redirect", ""], env, exists).commandFlags).toEqual({ "root-redirect": "" });
  expect(parseArgs(["key", "list", "--root-redirect", "https://example.com/r"], {}, exists).commandFlags).toEqual({});
});
