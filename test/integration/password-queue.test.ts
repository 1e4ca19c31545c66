// Password guesses go through a bounded queue per process (#33, finding 4), against a real server on
// either engine: guesses sent at once from one address are not all verified (one at a time; the
// others get 429 with Retry-After at once), guesses from many addresses past the queue's bound get
// 429 at once, and every guess gets an answer. The link's hash is at the upper bounds (64 MiB, t=4,
// p=4), the costliest a verify may be. Nothing here asserts a time.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, UA } from "../support/clicks.ts";
import { argon2id } from "../support/argon2.ts";
import { VERIFYING_AT_ONCE, WAITING_AT_MOST } from "../../src/http/password-queue.ts";

const PASSWORD = "correct horse battery staple";
let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
  key = makeKey(server.dbPath, "owner");
  const hash = argon2id(PASSWORD, { m: 65536, t: 4, p: 4 });
  const ids = ["q-one", "q-form", "q-many"];
  const r = await api(server.url, key, "POST", "/api/links/import", ids.map((id) => ({ url: `https://secret.example/${id}`, custom_url: id, password_hash: hash })));
  expect(r.body.data.created).toHaveLength(ids.length);
}, 30_000);
afterAll(() => server.dispose());

const guess = (id: string, address: string, password: string) => click(server.url, id, { "user-agent": UA.firefoxLinux, "x-forwarded-for": address, "x-link-password": password });

/** Every answer is a checked wrong guess (403) or a 429 with Retry-After; the count of each. */
async function tally(answers: Response[], page: boolean): Promise<{ checked: number; refused: number }> {
  let checked = 0;
  let refused = 0;
  for (const res of answers) {
    expect([403, 429]).toContain(res.status);
    if (res.status === 403) {
      checked++;
      continue;
    }
    refused++;
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    if (page) {
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain('class="form-error"');
    } else expect(await res.json()).toMatchObject({ success: false, code: "rate_limited" });
  }
  return { checked, refused };
}

test("ten wrong guesses at once from one address: every one is answered, not all are verified, the others get 429", async () => {
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => guess("q-one", "198.51.100.1", `guess ${i}`)));
  const { checked, refused } = await tally(answers, false);
  expect(checked).toBeGreaterThanOrEqual(1);
  expect(refused).toBeGreaterThanOrEqual(1);
  expect(checked + refused).toBe(10);
  // Once they are answered the address is free: its right password opens the link.
  expect((await guess("q-one", "198.51.100.1", PASSWORD)).status).toBe(302);
}, 30_000);

test("the form, posted several times at once from one address: the others get the password page with the 429 notice", async () => {
  const post = (password: string) =>
    fetch(`${server.url}/q-form`, {
      method: "POST", redirect: "manual", body: `password=${encodeURIComponent(password)}`,
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": UA.firefoxLinux, "x-forwarded-for": "198.51.100.2" },
    });
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`guess ${i}`)));
  const { checked, refused } = await tally(answers, true);
  expect(checked).toBeGreaterThanOrEqual(1);
  expect(refused).toBeGreaterThanOrEqual(1);
}, 30_000);

test("guesses from many addresses at once, past the queue's bound: 429 at once for the rest, none left without an answer", async () => {
  const n = 4 * (VERIFYING_AT_ONCE + WAITING_AT_MOST); // fewer than the link's 60 a minute: only the queue refuses
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => guess("q-many", `203.0.113.${i + 1}`, `farm ${i}`)));
  const { checked, refused } = await tally(answers, false);
  expect(checked + refused).toBe(n);
  expect(refused).toBeGreaterThanOrEqual(1);
  // The queue has drained: a right password from anyone opens the link.
  const opened = await guess("q-many", "192.0.2.1", PASSWORD);
  expect(opened.status).toBe(302);
  expect(opened.headers.get("location")).toBe("https://secret.example/q-many");
}, 30_000);
