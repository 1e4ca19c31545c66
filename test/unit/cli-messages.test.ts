// The command line's words: "did you mean", the start-up log's next step, the port below 1024,
// and who the process runs as.

import { describe, expect, test } from "bun:test";
import { ConfigError, parseArgs } from "../../src/config.ts";
import { editDistance, nearest } from "../../src/cli/suggest.ts";
import { isNewInstance, nextStep } from "../../src/cli/next-step.ts";
import { cannotListen, describeUser, userName } from "../../src/cli/permission.ts";

/** The ConfigError parseArgs throws for argv. */
function refusal(argv: string[]): string {
  try {
    parseArgs(argv, {}, () => true);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("did you mean", () => {
  test("edit distance counts a swap of neighbours as one", () => {
    expect(editDistance("kye", "key")).toBe(1);
    expect(editDistance("base-ur", "base-url")).toBe(1);
    expect(editDistance("stats", "stats")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
  });

  test("the nearest word within a small tolerance, else nothing", () => {
    expect(nearest("kye", ["backup", "key", "user"])).toBe("key");
    expect(nearest("creat", ["create", "list", "revoke"])).toBe("create");
    expect(nearest("Port", ["port", "host"])).toBe("port");
    expect(nearest("frobnicate", ["port", "host", "base-url"])).toBeNull();
    expect(nearest("url", ["user"])).toBeNull(); // two edits from a three-letter word is a different word
  });

  test.each([
    [["--base-ur", "https://s.example"], "unknown flag --base-ur; did you mean --base-url?"],
    [["--trust-proxys", "10.0.0.1"], "unknown flag --trust-proxys; did you mean --trust-proxy?"],
    [["--webhook-allow-privat"], "unknown flag --webhook-allow-privat; did you mean --webhook-allow-private?"],
    [["key", "create", "me", "--scop", "admin"], "unknown flag --scop; did you mean --scope?"],
    [["import", "--from", "csv", "--fiel", "x.csv"], "unknown flag --fiel; did you mean --file?"],
    [["--frobnicate"], "unknown flag --frobnicate (see --help)"],
  ])("%p: %s", (argv, message) => {
    expect(refusal(argv)).toBe(message);
  });

  test("a command's flag is suggested only with that command on the line", () => {
    expect(refusal(["--scop", "admin"])).toBe("unknown flag --scop (see --help)");
  });
});

describe("the start-up log's next step", () => {
  const at = { baseUrl: null, host: "0.0.0.0", port: 8080, database: "/srv/s/shortener.db", signIn: false };

  test("make a key with the database named, then open the dashboard on this machine", () => {
    expect(nextStep(at)).toBe("next: shortener key create NAME --db /srv/s/shortener.db, then open http://localhost:8080/links and paste the key");
  });

  test("the system's database needs no --db; --base-url is the dashboard's address", () => {
    expect(nextStep({ ...at, database: "/var/lib/shortener/shortener.db", baseUrl: "https://s.example.org" })).toBe("next: shortener key create NAME, then open https://s.example.org/links and paste the key");
  });

  test("a listening address other than every address is kept; IPv6 in brackets", () => {
    expect(nextStep({ ...at, host: "127.0.0.1", port: 9000 })).toContain("http://127.0.0.1:9000/links");
    expect(nextStep({ ...at, host: "::1" })).toContain("http://[::1]:8080/links");
  });

  test("a PostgreSQL URL loses its password; a path with a space is quoted", () => {
    expect(nextStep({ ...at, database: "postgres://app:s3cret@db.internal/links" })).toContain("--db postgres://app@db.internal/links,");
    expect(nextStep({ ...at, database: "/srv/my links/shortener.db" })).toContain("--db '/srv/my links/shortener.db',");
  });

  test("with sign-in through a provider or a proxy: sign in first", () => {
    expect(nextStep({ ...at, signIn: true })).toBe("next: open http://localhost:8080/links and sign in (or make a key: shortener key create NAME --db /srv/s/shortener.db)");
  });

  test("only while nobody can manage links: no key, no user, no admin key from a credential", async () => {
    const none = { list: () => [] as never[] };
    const one = { list: () => [{}] as never[] };
    expect(await isNewInstance({ keys: none, users: none }, false)).toBe(true);
    expect(await isNewInstance({ keys: one, users: none }, false)).toBe(false);
    expect(await isNewInstance({ keys: none, users: one }, false)).toBe(false);
    expect(await isNewInstance({ keys: none, users: none }, true)).toBe(false);
  });
});

describe("who runs, and ports below 1024", () => {
  test("a user's name comes from /etc/passwd, else the uid alone", () => {
    const passwd = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
    expect(userName(65534, passwd)).toBe("nobody");
    expect(userName(1234, passwd)).toBeNull();
    expect(describeUser({ name: "nobody", uid: 65534 })).toBe("user nobody (uid 65534)");
    expect(describeUser({ name: null, uid: 1234 })).toBe("uid 1234");
  });

  test("a refused port below 1024 says why and what to do; other failures keep their words", () => {
    const refused = Object.assign(new Error("permission denied 0.0.0.0:80"), { code: "EACCES" });
    const nobody = { name: "nobody", uid: 65534, gid: 65534 };
    const line = cannotListen("0.0.0.0", 80, refused, nobody);
    expect(line).toStartWith("cannot listen on 0.0.0.0:80: permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE, which user nobody (uid 65534) lacks;");
    expect(line).toContain("--port 8080");
    expect(line).toContain("AmbientCapabilities=CAP_NET_BIND_SERVICE");
    expect(cannotListen("0.0.0.0", 8080, Object.assign(new Error("address in use"), { code: "EADDRINUSE" }), nobody)).toBe("cannot listen on 0.0.0.0:8080: address in use");
  });
});
