// Several instances of the service on one PostgreSQL database, behind no load balancer but the
// test itself: clicks spread over three instances are counted exactly once (totals, breakdowns,
// unique visitors), a click limit holds across them, a change made through one is seen by the
// others, and one instance killed or stopped under load takes nothing acknowledged with it.
// Runs with the PostgreSQL suites (SHORTENER_TEST_ENGINE=postgres, part of npm test); with
// SHORTENER_BIN set (CI), these are three copies of the compiled binary.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { sharedPostgres } from "../support/postgres.ts";
import { createLink, onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, stats, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

const UAS = [
  { ua: UA.chromeWindows, browser: "Chrome", os: "Windows" },
  { ua: UA.firefoxLinux, browser: "Firefox", os: "Linux" },
  { ua: UA.safariIphone, browser: "Safari", os: "iOS" },
] as const;
const REFERERS = ["https://news.example.org/a", "https://blog.example.net/b", ""] as const;
const VISITORS = 300;

// Which visitor, agent and referrer the n-th click of a run is (so the expected breakdowns are
// known). A visitor is an address and its one agent (VISITORS is a multiple of the agents).
const clickOf = (n: number) => ({
  visitor: n % VISITORS,
  agent: UAS[n % UAS.length]!,
  referer: REFERERS[Math.floor(n / UAS.length) % REFERERS.length]!,
});

// Each instance trusts the test as its proxy, so that X-Forwarded-For makes many visitors.
const ARGS = ["--trust-proxy", "127.0.0.1", "--create-rate-limit", "0"];

let url: string;
let instances: RunningServer[];
let key: string;

beforeAll(async () => {
  if (!onPostgres) return;
  url = await (await sharedPostgres()).createDatabase();
  // Started together on an empty database: one migrates under the advisory lock, the others wait.
  instances = await Promise.all([0, 1, 2].map(() => startServer({ database: url, args: ARGS })));
  key = makeKey(url, "instances");
}, 60_000);
afterAll(async () => {
  if (!onPostgres) return;
  await Promise.all((instances ?? []).map((s) => s.dispose()));
  await (await sharedPostgres()).dropDatabase(url);
});

/**
 * Sends `total` clicks on id (or clicks until `until()` says stop), round-robin over the given
 * instances, `concurrency` at a time; returns the statuses per instance (0: no answer), which
 * go into `statuses` as they come (a test watches them while the load runs).
 */
async function spread(id: string, total: number, targets: RunningServer[], concurrency = 48, until?: () => boolean, statuses = targets.map(() => [] as number[])) {
  let next = 0;
  const worker = async () => {
    while (next < total && !(until?.() ?? false)) {
      const n = next++;
      const t = n % targets.length;
      const c = clickOf(n);
      const headers: Record<string, string> = { "user-agent": c.agent.ua, "x-forwarded-for": `198.51.${100 + Math.floor(c.visitor / 250)}.${c.visitor % 250}` };
      if (c.referer) headers.referer = c.referer;
      try {
        const res = await click(targets[t]!.url, id, headers);
        await res.arrayBuffer();
        statuses[t]!.push(res.status);
      } catch {
        statuses[t]!.push(0); // no answer (an instance killed or stopped)
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/** Until every target has answered clicks of the load: it is under way everywhere. */
async function underLoad(live: number[][]): Promise<void> {
  expect(await eventually(async () => Math.min(...live.map((s) => s.filter((x) => x === 302).length)), (n) => n >= 20, 30_000, 10)).toBeGreaterThanOrEqual(20);
}

/** After the middle target went away: until a click to it found no one, and the other two answered 100 more. */
async function loadWentOn(live: number[][]): Promise<void> {
  const others = () => live[0]!.length + live[2]!.length;
  const before = others();
  const wentOn = await eventually(async () => live[1]!.includes(0) && others() >= before + 100, (ok) => ok, 30_000, 10);
  expect(wentOn).toBe(true);
}

describe.skipIf(!onPostgres)("three instances on one PostgreSQL", () => {
  test("30,000 clicks spread over three instances: totals, breakdowns and unique visitors exact", async () => {
    expect((await createLink(instances[0]!.url, { url: "https://example.com/spread", custom_url: "spread" })).status).toBe(201);
    const TOTAL = 30_000;
    const started = Date.now();
    const statuses = await spread("spread", TOTAL, instances);
    const seconds = (Date.now() - started) / 1000;
    for (const s of statuses) expect(s.filter((x) => x !== 302)).toEqual([]);
    console.log(`30,000 clicks over 3 instances: ${Math.round(TOTAL / seconds)} clicks/s from the test (${statuses.map((s) => s.length).join(" + ")})`);

    // Read through the instance that answered none of them in particular: each sees the same counts.
    const body = await eventually(() => stats(instances[2]!.url, "id=spread"), (b) => b.data?.stats.totalClicks >= TOTAL, 15_000, 20);
    const s = body.data.stats;
    expect(s.totalClicks).toBe(TOTAL);
    expect(s.humanClicks).toBe(TOTAL);
    const expected = (pick: (n: number) => string) => {
      const counts = new Map<string, number>();
      for (let n = 0; n < TOTAL; n++) counts.set(pick(n), (counts.get(pick(n)) ?? 0) + 1);
      return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
    };
    expect(s.browserStats).toEqual(expected((n) => clickOf(n).agent.browser));
    expect(s.osStats).toEqual(expected((n) => clickOf(n).agent.os));
    expect(s.referrerStats).toEqual(expected((n) => (clickOf(n).referer ? new URL(clickOf(n).referer).host : "Direct")));
    // One visitor is one visitor, whichever instance answered: 300 a day (a run across midnight
    // UTC counts the day after's as new).
    // With one day these bounds say exactly VISITORS; across midnight each day counts at most all of them.
    const days: { unique: number }[] = s.visitsByDate.filter((d: { count: number }) => d.count > 0);
    const sum = days.reduce((n, d) => n + d.unique, 0);
    expect(s.uniqueVisitors).toBe(sum);
    expect(days.length).toBeLessThanOrEqual(2);
    for (const d of days) expect(d.unique).toBeLessThanOrEqual(VISITORS);
    expect(sum).toBeGreaterThanOrEqual(VISITORS);
    expect(sum).toBeLessThanOrEqual(VISITORS * days.length);
    for (const other of instances.slice(0, 2)) expect((await stats(other.url, "id=spread")).data.stats.totalClicks).toBe(TOTAL);
  }, 120_000);

  test("one alias raced on three instances: one 201, the rest 409", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => createLink(instances[i % 3]!.url, { url: `https://example.com/race/${i}`, custom_url: "raced" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(29).fill("alias_taken"));
  });

  test("max_clicks holds across instances: exactly that many redirects between them", async () => {
    expect((await createLink(instances[1]!.url, { url: "https://example.com/limited", custom_url: "limited", max_clicks: "50" }, { authorization: `Bearer ${key}` })).status).toBe(201);
    const statuses = (await spread("limited", 300, instances, 30)).flat();
    expect(statuses.filter((s) => s === 302)).toHaveLength(50);
    expect(statuses.filter((s) => s === 410)).toHaveLength(250);
  });

  test("an edit, a disable and a delete through one instance are seen by the others", async () => {
    expect((await createLink(instances[0]!.url, { url: "https://example.com/before", custom_url: "changing" }, { authorization: `Bearer ${key}` })).status).toBe(201);
    // Every instance has it in memory.
    for (const s of instances) expect((await click(s.url, "changing")).headers.get("location")).toBe("https://example.com/before");

    const delays: Record<string, number[]> = {};
    const seen = async (change: string, ok: (r: Response) => boolean) => {
      const at = Date.now();
      for (const s of instances.slice(1)) {
        const r = await eventually(() => click(s.url, "changing", {}, "HEAD"), ok, 10_000, 20);
        expect(ok(r)).toBe(true);
        (delays[change] ??= []).push(Date.now() - at);
      }
    };
    expect((await api(instances[0]!.url, key, "PATCH", "/api/links/changing", { url: "https://example.com/after" })).status).toBe(200);
    await seen("edit", (r) => r.headers.get("location") === "https://example.com/after");
    expect((await api(instances[0]!.url, key, "PATCH", "/api/links/changing", { disabled: true })).status).toBe(200);
    await seen("disable", (r) => r.status === 410);
    expect((await api(instances[0]!.url, key, "PATCH", "/api/links/changing", { disabled: false })).status).toBe(200);
    await seen("enable", (r) => r.status === 302);
    expect((await api(instances[0]!.url, key, "DELETE", "/api/links/changing")).status).toBe(200);
    await seen("delete", (r) => r.status === 410);
    console.log(`changes seen by the other instances after (ms): ${JSON.stringify(delays)}`);
  });

  test("a change whose notification never arrived is still seen (the periodic check)", async () => {
    expect((await createLink(instances[0]!.url, { url: "https://example.com/quiet-before", custom_url: "quiet" })).status).toBe(201);
    for (const s of instances) expect((await click(s.url, "quiet", {}, "HEAD")).headers.get("location")).toBe("https://example.com/quiet-before");
    // As an operator's own SQL would (or a NOTIFY lost on a dead connection): the row and the
    // change log, no notification.
    const pg = new SQL(url, { max: 1 });
    await pg.begin(async (tx) => {
      await tx`UPDATE links SET url = 'https://example.com/quiet-after' WHERE id = 'quiet'`;
      await tx`INSERT INTO link_changes (link_id) VALUES ('quiet')`;
    });
    await pg.close();
    const at = Date.now();
    for (const s of instances) {
      const r = await eventually(() => click(s.url, "quiet", {}, "HEAD"), (x) => x.headers.get("location") === "https://example.com/quiet-after", 10_000, 20);
      expect(r.headers.get("location")).toBe("https://example.com/quiet-after");
    }
    console.log(`a change without NOTIFY seen by all three after ${Date.now() - at} ms`);
  });

  test("a session and a key work on every instance; a revoked key stops on every instance", async () => {
    const revocable = makeKey(url, "revocable");
    const signedIn = await api(instances[0]!.url, null, "POST", "/api/session", { key: revocable });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    for (const s of instances) {
      expect((await api(s.url, revocable, "GET", "/api/links?limit=1")).status).toBe(200);
      expect((await api(s.url, null, "GET", "/api/links?limit=1", undefined, { cookie })).status).toBe(200);
    }
    const revoked = Bun.spawnSync([...(await import("../support/server.ts")).serverCommand(), "key", "revoke", "revocable", "--db", url], { stdout: "pipe", stderr: "pipe" });
    expect(revoked.exitCode).toBe(0);
    for (const s of instances) {
      expect((await api(s.url, revocable, "GET", "/api/links?limit=1")).status).toBe(401);
      expect((await api(s.url, null, "GET", "/api/links?limit=1", undefined, { cookie })).status).toBe(401);
    }
  });

  test("SIGTERM on one instance under load: it exits 0, and every click any instance answered is counted", async () => {
    expect((await createLink(instances[0]!.url, { url: "https://example.com/stopping", custom_url: "stopping" })).status).toBe(201);
    const extra = await startServer({ database: url, args: ARGS });
    const targets = [instances[0]!, extra, instances[1]!];
    let done = false;
    const live = targets.map(() => [] as number[]);
    const load = spread("stopping", Infinity, targets, 36, () => done, live);
    await underLoad(live);
    expect(await extra.stop()).toBe(0);
    await loadWentOn(live); // against the other two
    done = true;
    const statuses = await load;
    const answered = statuses.flat().filter((s) => s === 302).length;
    expect(statuses[0]!.concat(statuses[2]!).every((s) => s === 302)).toBe(true);
    expect(statuses[1]!.filter((s) => s === 302).length).toBeGreaterThan(0);
    expect(statuses[1]!.filter((s) => s === 0).length).toBeGreaterThan(0); // the load did go on past the stop
    const body = await eventually(() => stats(instances[1]!.url, "id=stopping"), (b) => b.data?.stats.totalClicks >= answered, 15_000, 20);
    // Nothing answered is lost, and nothing is counted twice or invented.
    expect(body.data.stats.totalClicks).toBe(answered);
    await extra.dispose();
  }, 120_000);

  test("kill -9 of one instance under load: the others keep answering, and every acknowledged link is intact", async () => {
    expect((await createLink(instances[0]!.url, { url: "https://example.com/killed", custom_url: "killed" })).status).toBe(201);
    const victim = await startServer({ database: url, args: ARGS });
    // Links created through every instance while the load runs, the victim included.
    const created = new Map<string, string>();
    let creating = true;
    const creator = (async () => {
      for (let i = 0; creating; i++) {
        const via = [instances[0]!, victim, instances[2]!][i % 3]!;
        const target = `https://example.com/made/${i}`;
        try {
          const r = await createLink(via.url, { url: target });
          if (r.status === 201) created.set(String(r.body.data.shortUrl).split("/").pop()!, target);
        } catch {
          // the victim is gone: its creates fail without an answer, and are not acknowledged
        }
      }
    })();
    const targets = [instances[0]!, victim, instances[2]!];
    let done = false;
    const live = targets.map(() => [] as number[]);
    const load = spread("killed", Infinity, targets, 36, () => done, live);
    await underLoad(live);
    victim.proc.kill("SIGKILL");
    await loadWentOn(live); // against the other two
    done = true;
    const statuses = await load;
    creating = false;
    await creator;
    expect(statuses[0]!.concat(statuses[2]!).every((s) => s === 302)).toBe(true); // the others kept answering
    expect(statuses[1]!.filter((s) => s === 0).length).toBeGreaterThan(0); // the load did go on past the kill
    const byOthers = statuses[0]!.length + statuses[2]!.length;
    const answered = statuses.flat().filter((s) => s === 302).length;
    const body = await eventually(() => stats(instances[0]!.url, "id=killed"), (b) => b.data?.stats.totalClicks >= byOthers, 15_000, 20);
    // The others' clicks are all there; the victim's last flush window (100 ms) may be lost.
    expect(body.data.stats.totalClicks).toBeGreaterThanOrEqual(byOthers);
    expect(body.data.stats.totalClicks).toBeLessThanOrEqual(answered);
    console.log(`kill -9: answered ${answered} (victim ${statuses[1]!.filter((s) => s === 302).length}), counted ${body.data.stats.totalClicks}, links acknowledged ${created.size}`);
    expect(created.size).toBeGreaterThan(0);
    for (const [id, target] of created) {
      const r = await click(instances[1]!.url, id, {}, "HEAD");
      expect({ id, status: r.status, location: r.headers.get("location") }).toEqual({ id, status: 302, location: target });
    }
    await victim.dispose();
  }, 120_000);
});
