// The QR renderer's rules without a server (docs/sharing.md: QR codes by URL): WCAG contrast, the
// options' bounds and defaults, the level raised under a logo, whole pixels per module, and the
// logo's box: at most a fifth of the side, centred, clear of the finder patterns at every version.

import { describe, expect, test } from "bun:test";
import { contrastRatio, parseHex } from "../../src/qr/colour.ts";
import { layoutOf } from "../../src/qr/layout.ts";
import { qrLogoOf, QrLogoError } from "../../src/qr/logo.ts";
import { qrMatrix, type QrLevel } from "../../src/qr/matrix.ts";
import { parseQrOptions, type QrOptions } from "../../src/qr/options.ts";
import { renderQr } from "../../src/qr/render.ts";
import { decodePng, logoPng } from "../support/qr-decode.ts";

const options = (query: string, logo = false) => parseQrOptions(new URLSearchParams(query), logo);

describe("colours", () => {
  test("WCAG contrast: 21 for black on white, 1 for a colour on itself, 777777 just under 4.5", () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([18, 52, 86], [18, 52, 86])).toBe(1);
    expect(contrastRatio(parseHex("777777")!, [255, 255, 255])).toBeCloseTo(4.48, 2);
    expect(contrastRatio(parseHex("767676")!, [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  test("hex: rrggbb, rgb, a leading #; nothing else", () => {
    expect(parseHex("1A237e")).toEqual([0x1a, 0x23, 0x7e]);
    expect(parseHex("#0f8")).toEqual([0, 0xff, 0x88]);
    for (const bad of ["", "12", "1234", "12345g", "##000", "red", "0000000"]) expect(parseHex(bad)).toBeNull();
  });
});

describe("options", () => {
  test("the defaults", () => {
    expect(options("")).toEqual({ format: "png", size: 600, margin: 2, level: "M", fg: [0, 0, 0], bg: [255, 255, 255], logo: false });
    expect((options("", true) as QrOptions).logo).toBe(true);
  });

  test.each([
    ["size=64", "size", 64], ["size=2048", "size", 2048], ["margin=0", "margin", 0], ["margin=16", "margin", 16],
  ])("%p is taken", (query, name, value) => {
    expect((options(query) as Record<string, unknown>)[name]).toBe(value);
  });

  test.each([["size=63"], ["size=2049"], ["size=0600.0"], ["margin=17"], ["margin= 1"], ["level=h2"], ["format=PNG"], ["fg=777777"], ["fg=fff&bg=000"]])("%p is refused", (query) => {
    expect("field" in options(query)).toBe(true);
  });

  test("the level under a logo: L and M become Q, Q and H stay", () => {
    const levels = (["L", "M", "Q", "H"] as QrLevel[]).map((l) => (options(`level=${l}`, true) as QrOptions).level);
    expect(levels).toEqual(["Q", "Q", "Q", "H"]);
    expect((options("level=L&logo=0", true) as QrOptions).level).toBe("L");
  });
});

describe("layout", () => {
  test("whole pixels per module, at most the size", () => {
    const matrix = qrMatrix("https://s.example/abc", "M");
    for (const size of [64, 99, 600, 2048]) {
      const layout = layoutOf(matrix, size, 2, false)!;
      expect(layout.scale).toBe(Math.floor(size / (matrix.size + 4)));
      expect(layout.side * layout.scale).toBeLessThanOrEqual(size);
    }
    expect(layoutOf(matrix, 20, 2, false)).toBeNull();
  });

  test("at every version (21 to 177 modules) the logo box is at most a fifth, centred, its modules cleared, clear of the finders", () => {
    for (let version = 1; version <= 40; version++) {
      const symbol = 17 + 4 * version;
      // Every module dark: the cleared ones are exactly the box.
      const matrix = { size: symbol, dark: new Uint8Array(symbol * symbol).fill(1) };
      const { logoBox, matrix: cleared } = layoutOf(matrix, 4096, 0, true)!;
      const { at, span } = logoBox!;
      expect(span).toBeLessThanOrEqual(symbol / 5);
      expect(at * 2 + span).toBe(symbol);
      // The finders and their separators take 8 modules from three corners.
      expect(at).toBeGreaterThanOrEqual(8);
      expect(at + span).toBeLessThanOrEqual(symbol - 8);
      let light = 0;
      for (const d of cleared.dark) if (d === 0) light++;
      expect(light).toBe(span * span);
    }
  });
});

describe("logo", () => {
  test("a PNG is taken, hashed by its bytes; anything else refused naming the file", () => {
    const logo = qrLogoOf(logoPng(40, [0, 0, 255]), "test");
    expect(logo.pixels.width).toBe(40);
    expect(logo.hash).not.toBe(qrLogoOf(logoPng(40, [0, 0, 254]), "test").hash);
    expect(() => qrLogoOf(new TextEncoder().encode("GIF89a"), "x.gif")).toThrow(QrLogoError);
    expect(() => qrLogoOf(new Uint8Array(256 * 1024 + 1), "big.png")).toThrow(/256 KB/);
  });

  test("a logo with a transparent corner: the code decodes under it at Q and H", () => {
    const logo = qrLogoOf(logoPng(30, [0, 0, 255]), "test");
    for (const level of ["Q", "H"]) {
      const drawn = renderQr("https://s.example/wide", { ...(options(`level=${level}`, true) as QrOptions) }, logo);
      expect("body" in drawn && decodePng(drawn.body as Uint8Array).text).toBe("https://s.example/wide");
    }
  });
});
