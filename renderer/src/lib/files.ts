// Files the user picks or drops (browser): read as base64 for the contract, and pictures drawn
// small for lists and the calendar.
import { THUMBNAIL_MAX_BYTES } from '../../../shared/media';

/** The file's bytes as base64, read by the browser (a data URL, less its prefix). */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** Bytes the core sent as base64, as a Blob of `type`. */
export function blobFromBase64(base64: string, type: string): Blob {
  return new Blob([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))], { type });
}

/** The longest side of a thumbnail: a chip shows it at a few dozen pixels, sharp on 2× screens. */
const THUMBNAIL_SIDE = 160;

/**
 * The picture drawn at most THUMBNAIL_SIDE pixels wide or high, as WebP (PNG where the browser
 * cannot write WebP); null when the browser cannot draw it. The core checks what it gets.
 */
export async function drawThumbnail(file: Blob): Promise<Blob | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = new OffscreenCanvas(
      Math.max(1, Math.round(bitmap.width * scale)),
      Math.max(1, Math.round(bitmap.height * scale)),
    );
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const thumbnail = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
    return thumbnail.size <= THUMBNAIL_MAX_BYTES ? thumbnail : null;
  } catch {
    return null; // not drawable here (an odd file, or no canvas): lists show a plain mark
  }
}
