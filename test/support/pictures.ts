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
