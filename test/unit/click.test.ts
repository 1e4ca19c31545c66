// The Click made at the door (src/http/click.ts): each field read from the right part of the
// request, the peer read once, and the facts redirect rules read (click-facts.ts) taken from it.

import { describe, expect, test } from "bun:test";
import { clickClient, RequestClick } from "../../src/http/click.ts";
import { createClickFactsSource } from "../../src/http/click-facts.ts";
import { isForm, spends } from "../../src/links/click.ts";
import { parseTrustedProxies } from "../../src/visits/client-ip.ts";
import type { PeerServer } from "../../src/http/request-origin.ts";
import type { SaltStore } from "../../src/visits/visitor-id.ts";

const NOW = Date.UTC(2026, 10, 28, 9, 30);

/** A socket whose peer is `address`, counting how often it is asked. */
function socket(address: string) {
  const asked = { times: 0 };
  const server: PeerServer = {
    requestIP: () => {
      asked.times++;
      return { address };
    },
  };
  return { server, asked };
}

function clickOf(url: string, init: RequestInit = {}, peer = "198.51.100.7") {
  const { server, asked } = socket(peer);
  return { click: new RequestClick(new Request(url, init), "abc", server, NOW), asked };
}

describe("RequestClick", () => {
  test("host, path and query are cut from the URL at their own places", () => {
    const { click } = clickOf("http://s.example.org:8080/abc?x=1&utm_source=news");
    expect({ id: click.id, host: click.host(), path: click.path(), query: click.query, method: click.method, now: click.now }).toEqual({
      id: "abc",
      host: "s.example.org:8080",
      path: "/abc",
      query: "x=1&utm_source=news",
      method: "GET",
      now: NOW,
    });
    expect(click.url).toBe("http://s.example.org:8080/abc?x=1&utm_source=news");
  });

  test("no query, and a bare '?', are both an empty query; the path stops before the '?'", () => {
    expect(clickOf("http://s.example/abc").click.query).toBe("");
    const bare = clickOf("http://s.example/abc?").click;
    expect({ query: bare.query, path: bare.path(), host: bare.host() }).toEqual({ query: "", path: "/abc", host: "s.example" });
  });

  test("the URL the door read already is the one used, not read again", () => {
    const request = new Request("http://s.example/abc?from=request");
    const click = new RequestClick(request, "abc", null, NOW, "http://s.example/abc?from=door");
    expect(click.query).toBe("from=door");
  });

  test("the socket peer is read once, however often asked; a request without a socket is this machine", () => {
    const { click, asked } = clickOf("http://s.example/abc", {}, "203.0.113.9");
    expect([click.peer(), click.peer()]).toEqual(["203.0.113.9", "203.0.113.9"]);
    expect(asked.times).toBe(1);
    expect(new RequestClick(new Request("http://s.example/abc"), "abc", undefined, NOW).peer()).toBe("127.0.0.1");
  });

  test("headers are the request's; proxy headers count only from a trusted peer", () => {
    const headers = { "user-agent": "Mozilla/5.0 test", "x-forwarded-for": "192.0.2.44", referer: "https://from.example/" };
    const { click } = clickOf("http://s.example/abc", { headers }, "10.0.0.2");
    expect([click.header("user-agent"), click.header("referer"), click.header("x-forwarded-for"), click.header("forwarded")]).toEqual([
      "Mozilla/5.0 test",
      "https://from.example/",
      "192.0.2.44",
      null,
    ]);
    expect(clickClient(click, parseTrustedProxies("10.0.0.0/8"))).toBe("192.0.2.44");
    expect(clickClient(click, parseTrustedProxies("172.16.0.0/12"))).toBe("10.0.0.2");
    expect(clickClient(click, parseTrustedProxies(""))).toBe("10.0.0.2");
  });

  test("GET and the form's POST spend a click, HEAD does not; only the POST is the form", () => {
    const get = clickOf("http://s.example/abc").click;
    const head = clickOf("http://s.example/abc", { method: "HEAD" }).click;
    const post = clickOf("http://s.example/abc", { method: "POST" }).click;
    expect([spends(get), spends(head), spends(post)]).toEqual([true, false, true]);
    expect([isForm(get), isForm(head), isForm(post)]).toEqual([false, false, true]);
  });
});

describe("a click's facts for redirect rules", () => {
  const salts: SaltStore = { salts: async () => new Map() } as unknown as SaltStore;
  const log = { info() {}, error() {} };
  const source = (trusted: string) => createClickFactsSource({ trusted: parseTrustedProxies(trusted), geoipDb: null, salts, log });

  test("language, query, agent and address come from the click", () => {
    const { click } = clickOf(
      "http://s.example/abc?lang=pt&ref",
      { headers: { "accept-language": "pt-BR,pt;q=0.9,en;q=0.5", "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "x-forwarded-for": "192.0.2.80" } },
      "10.1.2.3",
    );
    const facts = source("10.0.0.0/8").facts(click);
    expect({ language: facts.language(), lang: facts.hasParam("lang", "pt"), ref: facts.hasParam("ref", undefined), other: facts.hasParam("x", undefined) }).toEqual({
      language: "pt-br",
      lang: true,
      ref: true,
      other: false,
    });
    expect({ os: facts.os(), device: facts.device() }).toEqual({ os: "iOS", device: "mobile" });
    expect(facts.address()).toBe("192.0.2.80");
    expect(source("").facts(click).address()).toBe("10.1.2.3");
  });
});
