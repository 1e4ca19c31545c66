import { test, expect, describe } from "bun:test";
import { createPriorityFlag, manageRecorderPriority, recorderThreadPriority, type PriorityControl } from "../../src/threads/recorder/priority.ts";
import { currentThreadId, mayRaiseToNormal } from "../../src/threads/policy.ts";

// A kernel stand-in that records every level set, and can refuse.
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

const THRESHOLDS = { behind: 100, behindMs: 1000, caughtUp: 10, caughtUpMs: 300 };
const RECORDER = 42;

// Both sides over one shared flag, each with its own kernel stand-in (they run on different threads).
function pair(mayRaise = true) {
  const kernel = fakeControl(mayRaise);
  const flag = createPriorityFlag(kernel.control);
  const clickSide = manageRecorderPriority(flag, RECORDER, THRESHOLDS, kernel.control);
  const recorderSide = recorderThreadPriority(flag, RECORDER, kernel.control);
  return { kernel, clickSide, recorderSide };
}

describe("recorder priority", () => {
  test("the recorder lowers itself once started, when it could be raised again", () => {
    const { kernel, clickSide, recorderSide } = pair();
    recorderSide.settle();
    expect(clickSide.level).toBe("low");
    expect(kernel.calls).toEqual(["low"]);
  });

  test("never lowered where it could not be raised again", () => {
    const { kernel, clickSide, recorderSide } = pair(false);
    recorderSide.settle();
    clickSide.observe(1_000_000, 60_000);
    clickSide.raise();
    recorderSide.settle();
    expect(clickSide.level).toBe("normal");
    expect(kernel.calls).toEqual([]);
  });

  test("behind by count or by age: the click thread raises it directly; caught up: it lowers itself", () => {
    const { kernel, clickSide, recorderSide } = pair();
    recorderSide.settle();
    clickSide.observe(100, 999); // at both thresholds: not behind
    expect(clickSide.level).toBe("low");
    clickSide.observe(101, 0);
    expect(clickSide.level).toBe("normal");
    expect(kernel.calls).toEqual(["low", "normal"]);

    clickSide.observe(5, 500); // few clicks, but the oldest is not recent enough: stays normal
    recorderSide.settle(); // (the recorder did not see the raise happen: it sets normal once more, harmlessly)
    expect(clickSide.level).toBe("normal");
    expect(kernel.calls).toEqual(["low", "normal", "normal"]);
    clickSide.observe(5, 100); // caught up: wanted low, but the click thread does not lower it...
    expect(kernel.calls).toHaveLength(3);
    recorderSide.settle(); // ...the recorder does, when it next looks
    expect(kernel.calls).toEqual(["low", "normal", "normal", "low"]);

    clickSide.observe(0, 1001); // a starved recorder with an old click: behind
    expect(clickSide.level).toBe("normal");
  });

  test("raise() (shutdown, or a create waiting for the write lock): normal, whatever the backlog", () => {
    const { kernel, clickSide, recorderSide } = pair();
    recorderSide.settle();
    clickSide.raise();
    expect(clickSide.level).toBe("normal");
    expect(kernel.calls).toEqual(["low", "normal"]);
  });

  test("a kernel that refuses ends the management instead of retrying every time", () => {
    const { kernel, clickSide, recorderSide } = pair();
    kernel.refuse(true);
    recorderSide.settle();
    recorderSide.settle();
    expect(clickSide.level).toBe("normal");
    kernel.refuse(false);
    recorderSide.settle();
    clickSide.observe(1_000_000, 0);
    clickSide.raise();
    expect(kernel.calls).toEqual([]);
  });

  test("does nothing without a thread id (not Linux)", () => {
    const kernel = fakeControl();
    const flag = createPriorityFlag(kernel.control);
    recorderThreadPriority(flag, null, kernel.control).settle();
    manageRecorderPriority(flag, null, THRESHOLDS, kernel.control).observe(1_000_000, 60_000);
    expect(kernel.calls).toEqual([]);
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
