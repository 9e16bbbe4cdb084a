// Text encodings of imported files (Node, main process). A byte-order mark decides when there is
// one; otherwise a file that is valid UTF-8 (as Node's own `isUtf8` checks it) is UTF-8; otherwise
// chardet's guess when it is sure enough, else Windows-1252 (what Excel on Western Windows
// writes). The user can name the encoding instead. Single-byte and East Asian encodings are
// decoded by iconv-lite: Node's own TextDecoder reads "windows-1252" as Latin-1, which would turn
// € and curly quotes into control characters.
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { isTextEncoding } from '../../shared/encodings';
import type { TextEncoding } from '../../shared/encodings';

export type { TextEncoding };

/**
 * Node decodes UTF-8 and UTF-16LE itself, as iconv-lite does (it hands them to this same
 * StringDecoder); left to iconv-lite, the first file of a process would wait about 10 ms for it
 * to load its tables of every other encoding.
 */
const NODE_NAME: Partial<Record<TextEncoding, 'utf8' | 'utf16le'>> = {
  'utf-8': 'utf8',
  'utf-16le': 'utf16le',
};

export interface Detected {
  encoding: TextEncoding;
  /** Bytes of byte-order mark to skip. */
  bomLength: number;
}

/** `sample` less a UTF-8 sequence that its end cuts off (the rest of the file holds the rest). */
function withoutCutCharacter(sample: Uint8Array): Uint8Array {
  // A sequence is at most 4 bytes: look back up to 3 for the lead byte of the last one.
  for (let back = 1; back <= Math.min(3, sample.length); back++) {
    const byte = sample[sample.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? sample.subarray(0, sample.length - back) : sample;
  }
  return sample;
}

/**
 * chardet's confidence (0 to 100) for single-byte encodings stays low even on clear cases (a
 * few lines of Russian in Windows-1251 score about 30), so "sure enough" is a floor plus a lead
 * over the runner-up; Western guesses and anything iconv-lite cannot decode fall back.
 */
const MIN_CONFIDENCE = 20;
const MIN_LEAD = 1.5;

function guessed(sample: Uint8Array): TextEncoding {
  const [best, next] = chardet.analyse(sample);
  if (!best || best.confidence < MIN_CONFIDENCE) return 'windows-1252';
  if (next && best.confidence < next.confidence * MIN_LEAD) return 'windows-1252';
  const name = best.name.toLowerCase();
  // Latin-1 text is Windows-1252 text: the latter only adds characters (€, curly quotes) in
  // Latin-1's unprintable range.
  return isTextEncoding(name) && name !== 'iso-8859-1' ? name : 'windows-1252';
}

/**
 * The encoding of a file from its first bytes (64 KiB is plenty); `complete` when they are the
 * whole file, so a character cut at their end is an error, not the sample's edge.
 */
export function detectEncoding(sample: Uint8Array, complete = false): Detected {
  const [a, b, c] = sample;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  if (isUtf8(complete ? sample : withoutCutCharacter(sample)))
    return { encoding: 'utf-8', bomLength: 0 };
  return { encoding: guessed(sample), bomLength: 0 };
}

/** A streaming decoder: feed it chunks, each returns the text complete so far. */
export function createDecoder(encoding: TextEncoding): {
  write(chunk: Buffer): string;
  end(): string;
} {
  const node = NODE_NAME[encoding];
  const decoder = node ? new StringDecoder(node) : iconv.getDecoder(encoding);
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}
