// The QR logo (--qr-logo; docs/sharing.md: QR codes by URL) against the real service: drawn in the
// middle of every code by default, over cleared modules, the level raised to at least Q, and the
// code still decodes at every size and level; logo=0 leaves it out; the SVG embeds it as a data:
// image; a missing, non-PNG or too big file stops the start with a message naming the flag.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "../support/admin.ts";
import { decodePng, decodeSvg, logoPng, pixelAt } from "../support/qr-decode.ts";
import { createLink, startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);

let server: RunningServer;
let shortUrl: string;
let logoPath: string;

const qr = (query = "") => fetch(`${server.url}/logo/qr${query}`);
const png = async (query = "") => {
  const res = await qr(query);
  expect(res.status).toBe(200);
  return { res, d: decodePng(new Uint8Array(await res.arrayBuffer())) };
};

beforeAll(async () => {
  const first = await startServer();
  logoPath = join(first.dir, "logo.png");
  await first.stop();
  // A red square with a transparent quarter: the background shows through there.
  writeFileSync(logoPath, logoPng(64, [200, 0, 0]));
  server = await startServer({ dir: first.dir, args: ["--qr-logo", logoPath, "--create-rate-limit", "0"] });
  expect((await createLink(server.url, { url: "https://example.com/logo", custom_url: "logo" })).status).toBe(201);
  shortUrl = `${server.url}/logo`;
}, 60_000);

afterAll(async () => {
  await server?.dispose();
});

describe("with --qr-logo", () => {
  test("by default: the logo in the middle, and the code decodes", async () => {
    const { d } = await png();
    expect(pixelAt(d, d.width >> 1, d.height >> 1)).toBe("c80000");
    expect(d.text).toBe(shortUrl);
  });

  test("logo=0: no logo, another ETag", async () => {
    const { d, res } = await png("?logo=0");
    expect(pixelAt(d, d.width >> 1, d.height >> 1)).not.toBe("c80000");
    expect(d.text).toBe(shortUrl);
    const withLogo = await qr();
    expect(res.headers.get("etag")).not.toBe(withLogo.headers.get("etag"));
  });

  test("the logo box is at most a fifth of the symbol's side", async () => {
    const { d } = await png("?margin=0");
    let red = 0;
    const y = d.height >> 1;
    for (let x = 0; x < d.width; x++) if (pixelAt(d, x, y) === "c80000") red++;
    expect(red).toBeGreaterThan(0);
    expect(red).toBeLessThanOrEqual(d.width / 5);
  });

  test("L and M are raised to Q under the logo (the same picture as Q); H stays H", async () => {
    const tags = await Promise.all(["L", "M", "Q", "H"].map(async (level) => (await qr(`?level=${level}`)).headers.get("etag")));
    expect(tags[0]).toBe(tags[2]!);
    expect(tags[1]).toBe(tags[2]!);
    expect(tags[3]).not.toBe(tags[2]!);
    const off = await Promise.all(["L", "Q"].map(async (level) => (await qr(`?level=${level}&logo=0`)).headers.get("etag")));
    expect(off[0]).not.toBe(off[1]!);
  });

  test.each([128, 300, 600, 1200, 2048])("size=%p decodes at Q and H with the logo", async (size) => {
    for (const level of ["Q", "H"]) expect((await png(`?size=${size}&level=${level}`)).d.text).toBe(shortUrl);
  });

  test("SVG: the logo as a data: PNG image over cleared modules; the modules alone still decode", async () => {
    const res = await qr("?format=svg");
    const svg = await res.text();
    expect(svg).toMatch(/<image x="\d+" y="\d+" width="\d+" height="\d+" [^>]*href="data:image\/png;base64,[A-Za-z0-9+/=]+"\/>/);
    expect(decodeSvg(svg).text).toBe(shortUrl);
    expect(await (await qr("?format=svg&logo=0")).text()).not.toContain("<image");
  });
});

describe("a bad --qr-logo stops the start (exit 2, naming the flag)", () => {
  test.each([
    ["missing", null],
    ["not a PNG", new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")],
    ["too big", new Uint8Array(256 * 1024 + 1)],
    ["a broken PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
  ])("%p", (name, bytes) => {
    const path = join(server.dir, `bad-${name.replace(/ /g, "-")}.png`);
    if (bytes !== null) writeFileSync(path, bytes);
    const r = cli(["--port", "0", "--host", "127.0.0.1", "--db", join(server.dir, "other.db"), "--qr-logo", path]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--qr-logo");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
