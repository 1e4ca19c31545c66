// The hand-over of clicks between the threads (src/visits/click.ts): what the recorder reads back is
// exactly what the click thread packed, over many hand-overs and dictionaries that start over, and
// what it queues is bounded.

import { expect, test } from "bun:test";
import { createClickPacker, createClickReader, MAX_FORWARDING, MAX_REFERER, MAX_USER_AGENT, type Click } from "../../src/visits/click.ts";

const click = (i: number): Click => ({
  linkSeq: 1_000 + (i % 7),
  linkId: `link${i % 7}`,
  ts: 1_700_000_000_000 + i,
  userAgent: i % 11 === 0 ? null : `Agent/${i % 13}`,
  referer: i % 3 === 0 ? null : `https://r${i % 17}.example/`,
  peer: i % 5 === 0 ? "::1" : "127.0.0.1",
  forwardedFor: i % 4 === 0 ? null : `203.0.113.${i % 250}`,
  forwarded: i % 9 === 0 ? "for=192.0.2.1" : null,
  destination: i % 2 === 0 ? null : `https://example.com/?utm_source=s${i}`,
});

test("every click reads back as packed, across hand-overs and a dictionary that starts over many times", () => {
  const packer = createClickPacker(20); // tiny: it starts over every few hand-overs
  const reader = createClickReader();
  const back: Click[] = [];
  let startsOver = 0;
  for (let n = 0, i = 0; n < 60; n++) {
    for (let k = 0; k < 1 + (n % 9); k++, i++) packer.add(click(i));
    const taken = packer.take()!;
    const handover = reader.parse(taken.message);
    if (handover.startsOver) startsOver++;
    reader.read(handover, (c) => {
      back.push({ linkSeq: c.linkSeq, linkId: c.linkId, ts: c.ts, userAgent: reader.text(c.userAgent), referer: reader.text(c.referer), peer: c.peer, forwardedFor: c.forwardedFor, forwarded: c.forwarded, destination: reader.text(c.destination) });
    });
  }
  expect(startsOver).toBeGreaterThan(5);
  expect(back).toEqual(Array.from({ length: back.length }, (_, i) => click(i)));
  expect(packer.take()).toBeNull();
});

test("a repeated string is sent once: the second hand-over of the same clicks is shorter", () => {
  const packer = createClickPacker();
  for (let i = 0; i < 50; i++) packer.add({ ...click(1), userAgent: "Mozilla/5.0 ".repeat(20) });
  const first = packer.take()!;
  for (let i = 0; i < 50; i++) packer.add({ ...click(1), userAgent: "Mozilla/5.0 ".repeat(20) });
  const second = packer.take()!;
  expect(second.message.length).toBeLessThan(first.message.length - 200);
  expect(second.size).toBeLessThan(first.size);
});

test("long headers are cut before they are queued; oversized forwarding headers name no hop", () => {
  const packer = createClickPacker();
  packer.add({ ...click(1), userAgent: "u".repeat(7_500), referer: `https://r.example/${"p".repeat(7_000)}`, forwardedFor: "1.2.3.4,".repeat(1_000) });
  const taken = packer.take()!;
  expect(taken.message.length).toBeLessThan(MAX_USER_AGENT + MAX_REFERER + 500);
  const reader = createClickReader();
  reader.read(reader.parse(taken.message), (c) => {
    expect(reader.text(c.userAgent)).toHaveLength(MAX_USER_AGENT);
    expect(reader.text(c.referer)).toHaveLength(MAX_REFERER);
    expect(c.forwardedFor).toBe("unknown");
  });
  expect("1.2.3.4,".repeat(1_000).length).toBeGreaterThan(MAX_FORWARDING);
});
