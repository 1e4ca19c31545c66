// Reading what the stats page drew: a QR code's content, and whether the chart's unique-visitor
// color is in a column of its canvas.
import type { Page } from "playwright-core";
import jsQR from "jsqr";

/** The text a QR code image on the page decodes to (its pixels read off the page, decoded here). */
export async function decodeQr(page: Page, selector: string): Promise<string | undefined> {
  const pixels = await page.evaluate((sel) => {
    const img = document.querySelector(sel) as HTMLImageElement;
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, rgba: Array.from(data.data) };
  }, selector);
  return jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data;
}

/**
 * Whether any pixel of the plot's column at `fraction` of its width has the unique-visitors color
 * (the light theme's teal, --series-2, or a blend of it with the white card): where a line between
 * days would cross, or where a day's mark stands.
 */
export async function tealInColumn(page: Page, fraction: number): Promise<boolean> {
  return page.evaluate((f) => {
    const over = document.querySelector<HTMLElement>("#chart .u-over")!;
    const canvas = document.querySelector<HTMLCanvasElement>("#chart canvas")!;
    const ratio = canvas.width / canvas.clientWidth;
    const x = Math.round((over.offsetLeft + f * over.clientWidth) * ratio);
    const top = Math.round(over.offsetTop * ratio);
    const height = Math.round(over.clientHeight * ratio);
    const column = canvas.getContext("2d")!.getImageData(x - 1, top, 3, height).data;
    for (let i = 0; i < column.length; i += 4) {
      const [r, g, b, a] = [column[i]!, column[i + 1]!, column[i + 2]!, column[i + 3]!];
      if (a > 60 && g - r > 40 && b - r > 30) return true;
    }
    return false;
  }, fraction);
}
