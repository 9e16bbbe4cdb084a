// Text encodings of imported files (Node, main process). A byte-order mark decides when there is
// one; otherwise a file that is valid UTF-8 (as Node's own `isUtf8` checks it) is UTF-8; otherwise
// chardet's guess when it is sure enough, else the ANSI code page of this computer's locale (what
// Excel writes there: Windows-1251 in Russia, Windows-1252 in the West); a guess names the likely
// alternatives, each with a sample line, for the CLI and the wizard to show. The user can name
// the encoding instead. Single-byte and East Asian encodings are
// decoded by iconv-lite: Node's own TextDecoder reads "windows-1252" as Latin-1, which would turn
// € and curly quotes into control characters.
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { isTextEncoding } from '../../shared/encodings';
import type { TextEncoding } from '../../shared/encodings';
import type { EncodingAlternative } from '../../shared/domain';

export type { EncodingAlternative, TextEncoding };

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
  /**
   * When the detector was unsure: the encodings the file may be in, the one taken first, each
   * with the file's first line of non-ASCII text as it would read; null when it was sure.
   */
  guess: EncodingAlternative[] | null;
}

/** The Windows ANSI code page Excel saves CSV in, by the language of the computer's locale. */
const CODE_PAGES: Partial<Record<string, TextEncoding>> = {
  ru: 'windows-1251',
  uk: 'windows-1251',
  be: 'windows-1251',
  bg: 'windows-1251',
  mk: 'windows-1251',
  sr: 'windows-1251',
  kk: 'windows-1251',
  pl: 'windows-1250',
  cs: 'windows-1250',
  sk: 'windows-1250',
  hu: 'windows-1250',
  ro: 'windows-1250',
  hr: 'windows-1250',
  sl: 'windows-1250',
  el: 'windows-1253',
  tr: 'windows-1254',
  he: 'windows-1255',
  ar: 'windows-1256',
  fa: 'windows-1256',
  et: 'windows-1257',
  lv: 'windows-1257',
  lt: 'windows-1257',
  ja: 'shift_jis',
  ko: 'euc-kr',
  zh: 'gb18030',
};

/** This computer's locale: the POSIX variables first (ru_RU.UTF-8), else the runtime's own. */
export function systemLocale(env: NodeJS.ProcessEnv = process.env): string {
  const posix = env.LC_ALL || env.LC_CTYPE || env.LANG;
  if (posix && posix !== 'C' && posix !== 'POSIX') return posix;
  return Intl.DateTimeFormat().resolvedOptions().locale;
}

/** The code page Excel writes on a computer in `locale`; Windows-1252 for the West and the rest. */
export function localeCodePage(locale: string): TextEncoding {
  const [language = '', region = ''] = locale.toLowerCase().split(/[-_.@]/);
  if (language === 'zh' && ['tw', 'hk', 'mo', 'hant'].includes(region)) return 'big5';
  return CODE_PAGES[language] ?? 'windows-1252';
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

/** A chardet name as one of ours, or null when iconv-lite cannot decode it here. */
function known(name: string): TextEncoding | null {
  const lower = name.toLowerCase();
  // Latin-1 text is Windows-1252 text: the latter only adds characters (€, curly quotes) in
  // Latin-1's unprintable range.
  if (lower === 'iso-8859-1') return 'windows-1252';
  return isTextEncoding(lower) && !lower.startsWith('utf-') ? lower : null;
}

/** How many alternatives a guess names, the one taken included. */
const ALTERNATIVES = 4;
const SAMPLE_CHARACTERS = 80;

function guessed(sample: Uint8Array, locale: string): Pick<Detected, 'encoding' | 'guess'> {
  const candidates = chardet.analyse(sample);
  const [best, next] = candidates;
  const sure =
    best !== undefined &&
    best.confidence >= MIN_CONFIDENCE &&
    (!next || best.confidence >= next.confidence * MIN_LEAD);
  const chosen = sure ? known(best.name) : null;
  if (chosen) return { encoding: chosen, guess: null };
  const local = localeCodePage(locale);
  const likely = [local, ...candidates.map((candidate) => known(candidate.name)), 'windows-1252'];
  const encodings = [...new Set(likely.filter((name): name is TextEncoding => name !== null))];
  const line = firstForeignLine(sample);
  return {
    encoding: local,
    guess: encodings.slice(0, ALTERNATIVES).map((encoding) => ({
      encoding,
      sample: iconv.decode(Buffer.from(line), encoding).slice(0, SAMPLE_CHARACTERS),
    })),
  };
}

/** The first line holding a byte past ASCII: where the encodings read differently. */
function firstForeignLine(sample: Uint8Array): Uint8Array {
  const at = sample.findIndex((byte) => byte >= 0x80);
  if (at < 0) return sample.subarray(0, 0);
  const start = sample.lastIndexOf(0x0a, at) + 1;
  const end = sample.indexOf(0x0a, at);
  const line = sample.subarray(start, end < 0 ? sample.length : end);
  return line.at(-1) === 0x0d ? line.subarray(0, -1) : line;
}

/**
 * The encoding of a file from its first bytes (64 KiB is plenty); `complete` when they are the
 * whole file, so a character cut at their end is an error, not the sample's edge.
 */
export function detectEncoding(
  sample: Uint8Array,
  complete = false,
  locale = systemLocale(),
): Detected {
  const [a, b, c] = sample;
  if (a === 0xef && b === 0xbb && c === 0xbf)
    return { encoding: 'utf-8', bomLength: 3, guess: null };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', bomLength: 2, guess: null };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', bomLength: 2, guess: null };
  if (isUtf8(complete ? sample : withoutCutCharacter(sample)))
    return { encoding: 'utf-8', bomLength: 0, guess: null };
  return { ...guessed(sample, locale), bomLength: 0 };
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
