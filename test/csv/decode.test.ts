import { describe, expect, it } from 'vitest';
import { createDecoder, detectEncoding } from '../../main/csv/decode';

const text = 'name,price\nCafé crème,€3\n“Quoted”,1\n';

function encode(
  encoding: 'utf-8-bom' | 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252',
): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf-16be': {
      const le = Buffer.from(text, 'utf16le');
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
    }
    case 'windows-1252':
      // Café crème, € (0x80), “ (0x93), ” (0x94)
      return Buffer.from([
        ...Buffer.from('name,price\nCaf'),
        0xe9,
        ...Buffer.from(' cr'),
        0xe8,
        ...Buffer.from('me,'),
        0x80,
        ...Buffer.from('3\n'),
        0x93,
        ...Buffer.from('Quoted'),
        0x94,
        ...Buffer.from(',1\n'),
      ]);
  }
}

/** Decodes in small chunks, so multi-byte characters are split across chunk boundaries. */
function decodeAll(bytes: Buffer): { encoding: string; text: string } {
  const detected = detectEncoding(bytes.subarray(0, 65_536));
  const decoder = createDecoder(detected.encoding);
  let out = '';
  const body = bytes.subarray(detected.bomLength);
  for (let offset = 0; offset < body.length; offset += 5)
    out += decoder.write(body.subarray(offset, offset + 5));
  return { encoding: detected.encoding, text: out + decoder.end() };
}

describe('encodings', () => {
  it.each([
    ['utf-8-bom', 'utf-8'],
    ['utf-8', 'utf-8'],
    ['utf-16le', 'utf-16le'],
    ['utf-16be', 'utf-16be'],
    ['windows-1252', 'windows-1252'],
  ] as const)('reads %s without mojibake', (source, encoding) => {
    expect(decodeAll(encode(source))).toEqual({ encoding, text });
  });

  it('takes a UTF-8 sample cut inside a character as UTF-8', () => {
    const bytes = Buffer.from('abc é', 'utf8');
    expect(detectEncoding(bytes.subarray(0, bytes.length - 1)).encoding).toBe('utf-8');
  });
});
