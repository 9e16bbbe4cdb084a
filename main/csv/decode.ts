// Text encodings of imported files (Node, main process). A byte-order mark decides when there is
// one; otherwise a file that is valid UTF-8 is UTF-8, and anything else is Windows-1252 (what
// Excel on Windows writes). Windows-1252 and UTF-16BE are decoded by iconv-lite: Node's own
// TextDecoder reads "windows-1252" as Latin-1, which would turn € and curly quotes into control
// characters.
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * Node decodes UTF-8 and UTF-16LE itself, as iconv-lite does (it hands them to this same
 * StringDecoder); left to iconv-lite, the first file of a process would wait about 10 ms for it
 * to load its tables of every other encoding.
 */
const NODE_NAME = { 'utf-8': 'utf8', 'utf-16le': 'utf16le' } as const;
const ICONV_NAME = { 'utf-16be': 'utf16be', 'windows-1252': 'win1252' } as const;

export interface Detected {
  encoding: TextEncoding;
  /** Bytes of byte-order mark to skip. */
  bomLength: number;
}

/** Is `bytes` valid UTF-8, allowing a sequence cut off at the end of the sample? */
function isUtf8(bytes: Uint8Array): boolean {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index] ?? 0;
    const length =
      byte < 0x80
        ? 1
        : byte >> 5 === 0b110
          ? 2
          : byte >> 4 === 0b1110
            ? 3
            : byte >> 3 === 0b11110
              ? 4
              : 0;
    if (length === 0 || (length === 2 && byte < 0xc2)) return false;
    for (let next = 1; next < length; next++) {
      if (index + next >= bytes.length) return true; // cut by the sample's end
      if (((bytes[index + next] ?? 0) & 0xc0) !== 0x80) return false;
    }
    index += length;
  }
  return true;
}

/** The encoding of a file from its first bytes (64 KiB is plenty). */
export function detectEncoding(sample: Uint8Array): Detected {
  const [a, b, c] = sample;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  return { encoding: isUtf8(sample) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/** A streaming decoder: feed it chunks, each returns the text complete so far. */
export function createDecoder(encoding: TextEncoding): {
  write(chunk: Buffer): string;
  end(): string;
} {
  const decoder =
    encoding === 'utf-8' || encoding === 'utf-16le'
      ? new StringDecoder(NODE_NAME[encoding])
      : iconv.getDecoder(ICONV_NAME[encoding]);
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}
