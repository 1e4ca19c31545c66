// The part of pngjs 5 we use (it ships no types): decoding the --qr-logo (src/qr/logo.ts); tests also encode with it.
declare module "pngjs" {
  export type PngImage = { width: number; height: number; data: Buffer };
  export type PngWriteOptions = { colorType?: 0 | 2 | 4 | 6; inputColorType?: 0 | 2 | 4 | 6; inputHasAlpha?: boolean; deflateLevel?: number; filterType?: -1 | 0 | 1 | 2 | 3 | 4; bitDepth?: 8 | 16 };
  export const PNG: {
    sync: {
      read(buffer: Buffer | Uint8Array, options?: { skipRescale?: boolean }): PngImage;
      write(png: PngImage, options?: PngWriteOptions): Buffer;
    };
    new (options: { width: number; height: number }): PngImage;
  };
}
