import { test, expect, describe } from "bun:test";
import { manageRecorderPriority, type PriorityControl } from "../../src/visits/recorder-priority.ts";
import { currentThreadId, mayRaiseToNormal } from "../../src/util/thread-policy.ts";

// A kernel stand-in that records every nice value set, and can refuse.
function fakeControl(mayRaise = true) {
  const calls: string[] = [];
  let refuse = false;
  const control: PriorityControl = {
    set: (_tid, level) => {
      if (refuse) throw new Error("EACCES");
      calls.push(level);
    },
    mayRaise: () => mayRaise,
  };
  return { control, calls, refuse: (on: boolean) => (refuse = on) };
}

const THRESHOLDS = { behind: 100, caughtUp: 10 };

describe("manageRecorderPriority", () => {
  test("lowers the thread at once when it could be raised again", () => {
    const k = fakeControl();
    const p = manageRecorderPriority(42, THRESHOLDS, k.control);
    expect(p.level).toBe("low");
    expect(k.calls).toEqual(["low"]);
  });

  test("never lowers a thread it could not raise again", () => {
    const k = fakeControl(false);
    const p = manageRecorderPriority(42, THRESHOLDS, k.control);
    p.observe(1_000_000);
    p.observe(0);
    expect(p.level).toBe("normal");
    expect(k.calls).toEqual([]);
  });

  test("does nothing without a thread id (not Linux)", () => {
    const k = fakeControl();
    const p = manageRecorderPriority(null, THRESHOLDS, k.control);
    expect(p.level).toBe("normal");
    expect(k.calls).toEqual([]);
  });

  test("normal priority while behind, low again only once caught up (hysteresis)", () => {
    const k = fakeControl();
    const p = manageRecorderPriority(42, THRESHOLDS, k.control);
    p.observe(100); // at the threshold: not yet behind
    expect(p.level).toBe("low");
    p.observe(101);
    expect(p.level).toBe("normal");
    p.observe(50); // between the thresholds: stays normal
    expect(p.level).toBe("normal");
    p.observe(9);
    expect(p.level).toBe("low");
    expect(k.calls).toEqual(["low", "normal", "low"]);
  });

  test("a refused change keeps the level it had and is tried again", () => {
    const k = fakeControl();
    const p = manageRecorderPriority(42, THRESHOLDS, k.control);
    k.refuse(true);
    p.observe(500);
    expect(p.level).toBe("low");
    k.refuse(false);
    p.observe(500);
    expect(p.level).toBe("normal");
  });
});

describe("mayRaiseToNormal", () => {
  const files = (capEff: string, niceLimit: string) => (path: string) =>
    path.endsWith("status") ? `Name:\tshortener\nCapEff:\t${capEff}\n` : `Limit Soft Limit Hard Limit Units\nMax nice priority         ${niceLimit}                    ${niceLimit}\n`;

  test.each([
    ["0000000000000000", "0", false], // an ordinary user, default limit
    ["0000000000000000", "19", false], // may go back to nice 1 only
    ["0000000000000000", "20", true], // LimitNICE=20
    ["0000000000000000", "unlimited", true],
    ["0000000000800000", "0", true], // CAP_SYS_NICE (bit 23)
    ["000001ffffffffff", "0", true], // root with every capability
    ["00000000a80425fb", "0", false], // Docker's default capabilities lack CAP_SYS_NICE
  ])("CapEff %s, nice limit %s → %p", (capEff, limit, expected) => {
    expect(mayRaiseToNormal(files(capEff, limit))).toBe(expected);
  });

  test("unreadable /proc means no", () => {
    expect(mayRaiseToNormal(() => { throw new Error("ENOENT"); })).toBe(false);
  });
});

test("currentThreadId is this thread's id: the main thread's equals the process id", () => {
  expect(currentThreadId()).toBe(process.pid);
});
