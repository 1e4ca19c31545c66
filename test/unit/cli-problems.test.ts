// An operation's problem on the command line (src/cli/problems.ts): a line on stderr that names the
// database where something was not found, exit 2 for what the command must change, 1 for the rest.

import { expect, test } from "bun:test";
import { exitCodeOf, sayProblem } from "../../src/cli/problems.ts";

test("not found names the database; a private receiver exits 2 (the flag to set), any other refusal 1", () => {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(`out ${l}`), err: (l: string) => lines.push(`err ${l}`) };
  expect(sayProblem({ code: "not_found", message: "no webhook 7" }, io, "/srv/s.db")).toBe(1);
  expect(sayProblem({ code: "url_private", message: "not a public address; set --webhook-allow-private" }, io, "/srv/s.db")).toBe(2);
  expect(sayProblem({ code: "bad_request", message: 'a key named "ci" exists' }, io, "/srv/s.db")).toBe(1);
  expect(lines).toEqual([
    "err shortener: no webhook 7 in /srv/s.db",
    "err shortener: not a public address; set --webhook-allow-private",
    'err shortener: a key named "ci" exists',
  ]);
  expect(exitCodeOf({ code: "admin_only", message: "x" })).toBe(1);
});
