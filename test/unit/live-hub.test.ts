// The live hub's guarded streams (src/events/live-hub.ts): a viewer who does not manage a link sees
// what was decided when their stream opened, and a change to the link ends the stream so that it is
// decided again, including a change that lands while the stream's request was being decided.

import { expect, test } from "bun:test";
import { createLiveHub } from "../../src/events/live-hub.ts";

const read = async (response: Response) => await new Response(response.body).text();

test("a change between the decision and open() ends the guarded stream at once, after its ready event", async () => {
  const hub = createLiveHub(() => {});
  const decidedAt = hub.version();
  hub.changed("abc"); // e.g. a password set while the viewer was being authenticated
  const opened = hub.open({ address: "192.0.2.1", linkId: "abc", ready: { id: "abc" }, guarded: { shown: null, decidedAt } });
  expect(opened).toBeInstanceOf(Response);
  expect(hub.streams()).toBe(0);
  const text = await read(opened as Response); // ends: a stream still open would never finish reading
  expect(text).toContain("event: ready");
});

test("without a change since the decision, the guarded stream stays open until the link changes", async () => {
  const hub = createLiveHub(() => {});
  const opened = hub.open({ address: "192.0.2.1", linkId: "abc", ready: { id: "abc" }, guarded: { shown: null, decidedAt: hub.version() } }) as Response;
  expect(hub.streams()).toBe(1);
  hub.changed("other");
  expect(hub.streams()).toBe(1);
  hub.changed("abc");
  expect(hub.streams()).toBe(0);
  expect(await read(opened)).toContain("event: ready");
  hub.closeAll();
});
