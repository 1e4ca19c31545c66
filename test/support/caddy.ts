// A real Caddy (Debian's package) in front of the service, with `forward_auth` to a small auth
// endpoint of the test's own, standing in for Authelia: it answers 200 with Remote-User,
// Remote-Groups and Remote-Email for the user its cookie names, 401 otherwise. Caddy copies those
// headers onto the request it proxies, exactly as docs/sign-in.md's block for Authelia has it.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import { freePort } from "./ports.ts";

// dave's answer names him only: no groups, no email (what a client adds must not fill them in).
export const PROXY_USERS: Record<string, { groups: string | null; email: string | null }> = {
  alice: { groups: "admins,staff", email: "alice@example.test" },
  bob: { groups: "staff", email: "bob@example.test" },
  carol: { groups: "guests", email: "carol@example.test" },
  dave: { groups: null, email: null },
};

// Its own loopback address: Caddy's answers (its 401) are not the service's, for the contract check.
export const CADDY_HOST = "127.0.0.3";

export type RunningCaddy = { url: string; stop(): Promise<void> };

/** Caddy on a free loopback port: forward_auth to the auth endpoint, then reverse_proxy to `upstream` (host:port). */
export async function startCaddy(upstream: string): Promise<RunningCaddy> {
  // Fails loudly, never skips: the proxy's tests are only worth something with the real proxy.
  if (Bun.which("caddy") === null) throw new Error("caddy not found: install it with `apt-get update && apt-get install -y caddy`");
  const auth = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const user = /(?:^|;\s*)test_user=([a-z]+)/.exec(request.headers.get("cookie") ?? "")?.[1];
      const known = user === undefined ? undefined : PROXY_USERS[user];
      if (user === undefined || known === undefined) return new Response("sign in first", { status: 401 });
      const headers: Record<string, string> = { "Remote-User": user };
      if (known.groups !== null) headers["Remote-Groups"] = known.groups;
      if (known.email !== null) headers["Remote-Email"] = known.email;
      return new Response(null, { status: 200, headers });
    },
  });
  const port = await freePort(CADDY_HOST);
  const dir = mkdtempSync(join(tmpdir(), "shortener-caddy-"));
  writeFileSync(
    join(dir, "Caddyfile"),
    `{
	admin off
	auto_https off
}
http://${CADDY_HOST}:${port} {
	# In this order (route): a client's own identity headers are dropped, then the auth endpoint's
	# answer sets them (Caddy's default order would run request_header after forward_auth).
	route {
		request_header -Remote-User
		request_header -Remote-Groups
		request_header -Remote-Email
		forward_auth 127.0.0.1:${auth.port} {
			uri /verify
			copy_headers Remote-User Remote-Groups Remote-Email
		}
		reverse_proxy ${upstream}
	}
}
`,
  );
  const proc = Bun.spawn(["caddy", "run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdout: "ignore",
    stderr: "pipe",
  });
  const url = `http://${CADDY_HOST}:${port}`;
  // Any answer will do (the auth endpoint's 401): Caddy is listening.
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (i > 200 || proc.exitCode !== null) {
        proc.kill();
        throw new Error(`caddy did not start: ${await new Response(proc.stderr).text()}`);
      }
      await Bun.sleep(50);
    }
  }
  return {
    url,
    async stop() {
      proc.kill();
      await proc.exited;
      auth.stop(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A GET from another loopback address than the proxy's (127.0.0.9): a client the service must not believe. */
export function getFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    http
      .get({ host: u.hostname, port: u.port, path: u.pathname + u.search, localAddress, headers }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on("error", reject);
  });
}
