// A UTF-8 answer (JSON's own, every page of a sync) is decoded without iconv-lite, whose first
// use loads every codec's module: about 10 ms in one turn at a sync's first page (#32). Other
// declared charsets still go through it. Its own file: iconv-lite's codecs load once a process.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { idleTimeout, readBodyText } from '../../main/platform/body';

const codecsLoaded = () => (iconv as unknown as { encodings: unknown }).encodings !== null;

async function read(bytes: Buffer, contentType: string): Promise<string> {
  const idle = idleTimeout(5_000);
  try {
    const response = new Response(new Uint8Array(bytes), {
      headers: { 'Content-Type': contentType },
    });
    return await readBodyText(response, 1024 * 1024, idle.signal, idle);
  } finally {
    idle.stop();
  }
}

describe("an answer's body", () => {
  it('is read as UTF-8 without loading codecs, a BOM dropped and bad bytes replaced', async () => {
    const text = '{"name":"Crème brûlée ☕"}';
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(await read(withBom, 'application/json')).toBe(text);
    expect(await read(Buffer.from(text), 'application/json; charset=UTF-8')).toBe(text);
    expect(await read(Buffer.from(text), 'application/json; charset="utf8"')).toBe(text);
    expect(await read(Buffer.from([0x7b, 0xff, 0x7d]), 'application/json')).toBe('{\ufffd}');
    expect(codecsLoaded()).toBe(false);
  });

  it('is read in the charset it declares otherwise', async () => {
    expect(
      await read(Buffer.from([0x22, 0xe9, 0x22]), 'application/json; charset=windows-1252'),
    ).toBe('"é"');
    expect(codecsLoaded()).toBe(true);
  });
});
