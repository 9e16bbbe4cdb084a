// JSON read into ordinary strings (Node, main process): each string value cut from the text,
// where JSON.parse puts every string value of up to ten characters (an order's id, its number)
// in V8's string table, allocated in the old generation and freed only by a full collection. A
// sync's unique short values piled up there page after page, the part of its peak memory that
// grew with the list (#32).
import { isInteger, isSafeNumber } from 'lossless-json';

/** A string's characters up to its end, its first escape or a character JSON refuses raw. */
// eslint-disable-next-line no-control-regex -- JSON refuses U+0000 to U+001F unescaped
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPED: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const KEYWORDS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/**
 * The value JSON.parse reads from `text`, except that an integer too big for a double (an id
 * past 2^53) is kept as its exact digits in a string, and every string is a slice of the text or
 * made from its pieces, never one of V8's string table. A list's pages are read so
 * (`Transport.list`): about twice JSON.parse's time for a page of 200 orders (0.5 ms), the same
 * for long texts. A key given twice keeps its last value, `__proto__` is a key like any other,
 * and what JSON.parse refuses throws. A slice of 13 characters or more holds the whole text
 * while it lives: a page's values are written and dropped, never kept.
 */
export function parseJsonUninterned(text: string): unknown {
  return new JsonSlices(text).whole();
}

class JsonSlices {
  private at = 0;

  constructor(private readonly text: string) {}

  whole(): unknown {
    const read = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail();
    return read;
  }

  private fail(): never {
    throw new SyntaxError(`Unexpected character in JSON at position ${this.at}`);
  }

  private space(): void {
    let c = this.text.charCodeAt(this.at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
      c = this.text.charCodeAt(++this.at);
  }

  private value(): unknown {
    this.space();
    const c = this.text.charCodeAt(this.at);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    for (const [word, meaning] of KEYWORDS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return meaning;
      }
    }
    return this.fail();
  }

  private string(): string {
    const { text } = this;
    let from = ++this.at;
    let decoded = '';
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c === 0x22) {
        const tail = text.slice(from, this.at++);
        return decoded === '' ? tail : decoded + tail;
      }
      if (c === 0x5c) {
        decoded += text.slice(from, this.at) + this.escape();
        from = this.at;
      } else if (c < 0x20 || Number.isNaN(c)) {
        this.fail();
      } else {
        PLAIN.lastIndex = this.at;
        PLAIN.test(text);
        this.at = PLAIN.lastIndex;
      }
    }
  }

  /** The character an escape at `at` stands for; `at` moves past it. */
  private escape(): string {
    const letter = this.text[this.at + 1] ?? '';
    if (letter === 'u') {
      const hex = this.text.slice(this.at + 2, this.at + 6);
      if (!HEX4.test(hex)) this.fail();
      this.at += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const meaning = ESCAPED[letter] ?? this.fail();
    this.at += 2;
    return meaning;
  }

  private number(): number | string {
    NUMBER.lastIndex = this.at;
    const token = NUMBER.exec(this.text)?.[0] ?? this.fail();
    this.at += token.length;
    // Up to fifteen characters, an integer is always safe: only a longer one needs the check.
    return token.length > 15 && isInteger(token) && !isSafeNumber(token) ? token : Number(token);
  }

  private object(): Record<string, unknown> {
    const read: Record<string, unknown> = {};
    if (this.opens(0x7d)) return read;
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.at) !== 0x22) this.fail();
      const key = this.string();
      this.space();
      if (this.text.charCodeAt(this.at++) !== 0x3a) this.fail();
      const item = this.value();
      // An own key, as JSON.parse makes it, never Object.prototype's setter.
      if (key === '__proto__')
        Object.defineProperty(read, key, {
          value: item,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      else read[key] = item;
      if (this.closes(0x7d)) return read;
    }
  }

  private array(): unknown[] {
    const read: unknown[] = [];
    if (this.opens(0x5d)) return read;
    for (;;) {
      read.push(this.value());
      if (this.closes(0x5d)) return read;
    }
  }

  /** Steps into a bracket or brace: whether it is empty (`close` next), stepped past then. */
  private opens(close: number): boolean {
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) !== close) return false;
    this.at++;
    return true;
  }

  /** After an item: true at `close` (stepped past), false at a comma; anything else throws. */
  private closes(close: number): boolean {
    this.space();
    const next = this.text.charCodeAt(this.at++);
    if (next === close) return true;
    if (next !== 0x2c) this.fail();
    return false;
  }
}
