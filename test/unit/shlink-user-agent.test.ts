// Every (browser, OS, device) our tables can record gets a User-Agent that bowser, the parser of
// Shlink's web client (shlink-web-component src/visits/services/VisitsParser.ts, parseUserAgent),
// reads back as the same browser and OS (docs/shlink-api.md: Visits).

import { describe, expect, test } from "bun:test";
import Bowser from "bowser";
import { BOWSER_BROWSER, BOWSER_OS, synthesizedUserAgent } from "../../src/http/compat/shlink/shlink-user-agent.ts";
import { BROWSER_FAMILY, classifyUserAgent, DEVICE_TYPES, OS_FAMILY, UNKNOWN } from "../../src/visits/ua.ts";

// Our names: the families of our tables and the ua-parser-js names kept as parsed (BOWSER_BROWSER's keys).
const BROWSERS = [...new Set([...Object.values(BROWSER_FAMILY), ...Object.keys(BOWSER_BROWSER)])];
const OSES = [...new Set(Object.values(OS_FAMILY))];
const DEVICES = [...DEVICE_TYPES, "desktop"];
// The browsers the web client charts by name; any other is "Others" (shlink-web-component src/visits/utils/index.ts).
const WEB_CLIENT_BROWSERS = ["Android Browser", "Chrome", "Chromium", "Firefox", "Internet Explorer", "Microsoft Edge", "Opera", "Safari", "Samsung Internet for Android", "Vivaldi", "WeChat"];

describe("synthesizedUserAgent: bowser reads back what we recorded", () => {
  test("every recorded browser and OS has a bowser name", () => {
    for (const b of BROWSERS) expect(BOWSER_BROWSER[b], b).toBeString();
    for (const os of OSES) expect(BOWSER_OS[os], os).toBeString();
  });

  test("every pair: bowser reads our browser and OS; a pair our own parser could not have recorded is read alike by both", () => {
    const unrecordable: string[] = [];
    for (const browser of BROWSERS) {
      for (const os of OSES) {
        for (const device of DEVICES) {
          const ua = synthesizedUserAgent(browser, os, device);
          const parsed = Bowser.parse(ua);
          const ours = classifyUserAgent(ua);
          // What we would record from this string, in bowser's names, is what bowser reads.
          expect(`${parsed.browser.name} / ${parsed.os.name}`, ua).toBe(`${BOWSER_BROWSER[ours.browser]} / ${BOWSER_OS[ours.os]}`);
          if (ours.browser !== browser || ours.os !== os) unrecordable.push(`${browser} on ${os}`);
        }
      }
    }
    // Only pairs no User-Agent gives our parser: Safari's tokens on Android are the Android Browser's,
    // and the Android Browser exists on Android only.
    expect([...new Set(unrecordable)].sort()).toEqual([...OSES.filter((os) => os !== "Android").map((os) => `Android Browser on ${os}`), "Safari on Android"].sort());
  });

  test("an unknown browser or a bot's name: a name the web client shows as Others", () => {
    // Not on Android: bowser names any unknown browser there "Android Browser" (its fallback for
    // Android strings; documented in docs/shlink-api.md: Visits).
    for (const os of [...OSES.filter((o) => o !== "Android"), UNKNOWN]) {
      for (const device of DEVICES) {
        const ua = synthesizedUserAgent(UNKNOWN, os, device);
        expect(WEB_CLIENT_BROWSERS, ua).not.toContain(Bowser.parse(ua).browser.name ?? "");
      }
    }
    expect(Bowser.parse(synthesizedUserAgent(UNKNOWN, UNKNOWN, "desktop")).os.name ?? "").toBe("");
    expect(Bowser.parse(synthesizedUserAgent("Googlebot", UNKNOWN, "desktop")).browser.name).toBe("Googlebot");
  });
});
