// The false-positive side of bot detection: every real browser string in the fixture must count as a
// person, through the same classifier the recorder uses. A bot-detection update that flags one of them
// fails here by name; look at what matched (isbot's findBotMatch) before accepting it.

import { describe, expect, test } from "bun:test";
import { createClientClassifier } from "../../src/visits/ua.ts";
import { BROWSER_USER_AGENTS } from "../fixtures/browser-user-agents.ts";

const classify = createClientClassifier();

describe("real browsers are people", () => {
  test("the fixture keeps at least 100 strings", () => {
    expect(BROWSER_USER_AGENTS.length).toBeGreaterThanOrEqual(100);
  });

  for (const { name, ua } of BROWSER_USER_AGENTS) {
    test(name, () => expect(classify(ua).isBot).toBe(false));
  }
});

// Guards the fixture against typos and invented formats: the parser must recognise each platform.
describe("fixture strings are recognisable browsers", () => {
  for (const { name, ua } of BROWSER_USER_AGENTS) {
    test(name, () => expect(classify(ua).os).not.toBe("Unknown"));
  }
});
