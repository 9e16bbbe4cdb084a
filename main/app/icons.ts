// The app's icons, drawn in code (Node, a build-time tool): a page with a headline on a blue
// rounded square, encoded as PNG with zlib alone. `npx tsx main/app/icons.ts` writes them into
// build/, where electron-builder makes the .ico and .icns from icon.png; a test checks that the
// committed files are what this draws.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];
type Box = readonly [left: number, top: number, right: number, bottom: number, radius: number];

const BLUE: Rgba = [45, 91, 227, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const INK: Rgba = [38, 52, 92, 255];
const CLEAR: Rgba = [0, 0, 0, 0];
const BLACK: Rgba = [0, 0, 0, 255];

const TILE: Box = [0.04, 0.04, 0.96, 0.96, 0.2];
const PAGE: Box = [0.24, 0.18, 0.76, 0.82, 0.05];
const HEADLINE: Box = [0.32, 0.27, 0.68, 0.37, 0.015];
const LINES: Box[] = [0, 1, 2].map((i) => [
  0.32,
  0.46 + 0.1 * i,
  i === 2 ? 0.56 : 0.68,
  0.51 + 0.1 * i,
  0.015,
]);

function inside([left, top, right, bottom, radius]: Box, x: number, y: number): boolean {
  if (x < left || x > right || y < top || y > bottom) return false;
  // Outside the corner circles only near a corner.
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The colour icon: tile, page, headline and text lines. */
function colour(x: number, y: number): Rgba {
  if ([HEADLINE, ...LINES].some((box) => inside(box, x, y))) return INK;
  if (inside(PAGE, x, y)) return WHITE;
  return inside(TILE, x, y) ? BLUE : CLEAR;
}

/** The macOS menu-bar template: the page alone, its lines cut out, black on transparent. */
function template(x: number, y: number): Rgba {
  if ([HEADLINE, ...LINES].some((box) => inside(box, x, y))) return CLEAR;
  return inside([0.12, 0.04, 0.88, 0.96, 0.08], x, y) ? BLACK : CLEAR;
}

/** Renders `shape` at `size` pixels, 4×4 samples a pixel for smooth edges. */
export function draw(shape: 'colour' | 'template', size: number): Buffer {
  const paint = shape === 'colour' ? colour : template;
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      // Premultiplied sums, so transparent samples do not darken the edge.
      let [red, green, blue, alpha] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const [r, g, b, a] = paint(
            (px + (sx + 0.5) / samples) / size,
            (py + (sy + 0.5) / samples) / size,
          );
          red += r * a;
          green += g * a;
          blue += b * a;
          alpha += a;
        }
      const offset = (py * size + px) * 4;
      pixels[offset] = alpha ? Math.round(red / alpha) : 0;
      pixels[offset + 1] = alpha ? Math.round(green / alpha) : 0;
      pixels[offset + 2] = alpha ? Math.round(blue / alpha) : 0;
      pixels[offset + 3] = Math.round(alpha / samples ** 2);
    }
  return encodePng(size, size, pixels);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG of `rgba` (width × height × 4 bytes, rows top to bottom). */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++)
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4); // filter 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every icon file in build/, by name. */
export const ICON_FILES: Record<string, () => Buffer> = {
  'icon.png': () => draw('colour', 1024),
  'tray.png': () => draw('colour', 32),
  'trayTemplate.png': () => draw('template', 16),
  'trayTemplate@2x.png': () => draw('template', 32),
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, make] of Object.entries(ICON_FILES)) writeFileSync(join('build', name), make());
  console.log(`Wrote ${Object.keys(ICON_FILES).join(', ')} into build/`);
}
