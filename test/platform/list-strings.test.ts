// A list's pages are read without V8's string table (#32). JSON.parse interns every string value
// of up to ten characters (an order's id, its number): each a new entry allocated in the old
// generation and freed only by a full collection, so a sync's unique short values piled up there
// page after page. Whether a string is interned is asked of V8 itself (%IsInternalizedString),
// which says it exactly where a heap figure would only hint at it.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonExact } from '../../main/platform/body';
import { parseJsonUninterned } from '../../main/platform/json-slices';
import { Transport } from '../../main/platform/transport';

setFlagsFromString('--allow-natives-syntax');
const isInterned = new Function('text', 'return %IsInternalizedString(text)') as (
  text: string,
) => boolean;

/** A transport whose every answer is `body`, as JSON. */
function answering(body: unknown): Transport {
  return new Transport({
    baseUrl: 'https://platform.example/api/v1',
    token: 'pk_test',
    fetch: (async () =>
      new Response(JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
      })) as typeof fetch,
  });
}

const order = z.looseObject({ id: z.string(), number: z.string(), status: z.string() });

describe("a list page's strings", () => {
  it('are ordinary strings, not entries of V8 string table', async () => {
    // Fresh values, so no earlier test or module interned them first.
    const stamp = Date.now().toString(36).slice(-5);
    const items = Array.from({ length: 5 }, (_, i) => ({
      id: `o${stamp}_${i}`,
      number: `${i}${stamp}`,
      status: 'paid',
    }));
    const page = await answering({ data: items, has_more: false }).list(order, {
      method: 'GET',
      path: '/orders',
    });
    expect(page.items).toEqual(items);
    for (const item of page.items) {
      expect(item.id.length).toBeLessThanOrEqual(10);
      expect(isInterned(item.id)).toBe(false);
      expect(isInterned(item.number)).toBe(false);
    }
  });

  it('as JSON.parse reads them, whatever the text holds', () => {
    const texts = [
      '{"a":"x","b":[1,-0,2.5e3,-1.25E-2,0.1,1e400],"c":{"d":null,"e":true,"f":false}}',
      ' \t\r\n[ "\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r\\ud83d\\ude00\\ud800", "Crème ☕ 😀\u2028", "" , {} , [ ] ] \n',
      '{"__proto__":{"polluted":1},"constructor":"c","2":"two","1":"one"}',
      '{"id":"first","n":1,"id":"last","__proto__":1,"__proto__":2}',
      '"just a string"',
      '12',
      ...Array.from({ length: 200 }, (_, i) => JSON.stringify(randomValue(seeded(i + 1), 4))),
    ];
    for (const text of texts) {
      const read = parseJsonUninterned(text);
      expect(read, text).toStrictEqual(JSON.parse(text));
      expect(Object.keys(read ?? {}), text).toEqual(Object.keys(JSON.parse(text) ?? {}));
    }
    const proto = parseJsonUninterned('{"__proto__":{"polluted":1}}') as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.hasOwn(proto, '__proto__')).toBe(true);
  });

  it('keeps an id past 2^53 exact, as parseJsonExact does', () => {
    const text = '{"id":12345678901234567890,"n":9007199254740991,"x":1.5}';
    expect(parseJsonUninterned(text)).toEqual({
      id: '12345678901234567890',
      n: 9007199254740991,
      x: 1.5,
    });
    expect(parseJsonExact(text)).toEqual(parseJsonUninterned(text));
    // lossless-json alone refuses a key given twice; JSON.parse keeps the last value.
    const twice = '{"id":12345678901234567890,"id":12345678901234567891}';
    expect(parseJsonExact(twice)).toEqual({ id: '12345678901234567891' });
  });

  it('refuses what JSON.parse refuses', () => {
    const refused = [
      ...['{"a":1,}', "{'a':1}", '[1,]', '[,1]', '{,}', '[1 2]', '{"a" 1}', '{"a":}', '{1:2}'],
      ...['"\u0001"', '"tab\tinside"', '"\\x"', '"\\u12G4"', '"\\u12"', '"open', '"\\'],
      ...['01', '1.', '-', '.5', '+1', '1e', '0x1', 'NaN', 'Infinity', 'tru', 'nul', 'True'],
      ...['[', '{', ']', '{"a":1} x', '[1]]', '', ' ', '\u00a01'],
    ];
    for (const text of refused) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(() => parseJsonUninterned(text), text).toThrow();
    }
  });
});

/** A value of every JSON kind, `depth` levels deep at most, drawn from `random`. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 0 ? 8 : 6));
  const text = () =>
    Array.from({ length: Math.floor(random() * 14) }, () =>
      String.fromCharCode(
        random() < 0.8 ? 32 + Math.floor(random() * 95) : Math.floor(random() * 0x2100),
      ),
    ).join('');
  switch (pick) {
    case 0:
      return text();
    case 1:
      // Safe integers: a longer one is kept as its digits, on purpose (below).
      return Math.floor((random() - 0.5) * 2 ** Math.floor(random() * 53));
    case 2:
      return (random() - 0.5) * 10 ** Math.floor(random() * 35 - 20);
    case 3:
      return random() < 0.5;
    case 4:
      return null;
    case 5:
      return `${text()}${text()}${text()}`;
    case 6:
      return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [
          text(),
          randomValue(random, depth - 1),
        ]),
      );
  }
}

/** A repeatable stream of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
