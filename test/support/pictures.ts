// Small real pictures for tests (Node): solid-colour PNGs, so each colour is a different file
// (uploads are kept once per content) that any browser can draw. Encoded as the app's icons are.
import { encodePng } from '../../main/app/icons';

/** A `width`×`height` PNG of one colour. */
export function solidPng(width: number, height: number, [r, g, b]: readonly number[]): Buffer {
  const pixel = [r ?? 0, g ?? 0, b ?? 0, 255];
  return encodePng(
    width,
    height,
    Buffer.from(
      Array<number[]>(width * height)
        .fill(pixel)
        .flat(),
    ),
  );
}

/** A `width`×`height` PNG of seeded noise: it does not compress, so it is about 4 bytes a pixel. */
export function noisyPng(width: number, height: number, seed = 1): Buffer {
  let state = seed >>> 0 || 1;
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < pixels.length; i++) {
    // xorshift32: the same picture every run.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = (i & 3) === 3 ? 255 : state & 255;
  }
  return encodePng(width, height, pixels);
}
