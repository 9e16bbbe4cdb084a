// Reading an answer's body leaves nothing on the request's signal (#32): the signal outlives the
// read (fetch's request holds it until a full collection), and a listener left on it held every
// chunk read, so a sync's page bodies piled up by megabytes between major collections.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { idleTimeout, readBodyText } from '../../main/platform/body';

const answer = (text: string) =>
  new Response(text, { headers: { 'Content-Type': 'application/json' } });

describe('reading a body', () => {
  it('takes its abort listener off the signal once read', async () => {
    const idle = idleTimeout(15_000);
    try {
      const text = await readBodyText(answer('{"data":[1,2,3]}'), 1024, idle.signal, idle);
      expect(text).toBe('{"data":[1,2,3]}');
      expect(getEventListeners(idle.signal, 'abort')).toHaveLength(0);
    } finally {
      idle.stop();
    }
  });

  it('takes it off when the body is too large, too', async () => {
    const idle = idleTimeout(15_000);
    try {
      const big = new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('x'.repeat(2048)));
            controller.close();
          },
        }),
      );
      await expect(readBodyText(big, 1024, idle.signal, idle)).rejects.toThrow('MiB');
      expect(getEventListeners(idle.signal, 'abort')).toHaveLength(0);
    } finally {
      idle.stop();
    }
  });
});
