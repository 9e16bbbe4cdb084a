// A long page of a list is read in slices (#32): the app's other calls get turns of the event
// loop while its items go through their schema, where one page of 200 orders held the core
// 10–45 ms. Counted, not timed: turns between the first item read and the last.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Transport } from '../../main/platform/transport';

/** Holds the thread about `ms`, as a costly schema does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a page of a list', () => {
  it('lets the event loop turn while its items are read, and keeps every item in order', async () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ id: `it_${i}` }));
    const transport = new Transport({
      baseUrl: 'https://platform.example/api/v1',
      token: 'pk_test',
      fetch: (async () =>
        new Response(JSON.stringify({ data: items, has_more: false }), {
          headers: { 'Content-Type': 'application/json' },
        })) as typeof fetch,
    });
    const turnsAt: number[] = [];
    let read = 0;
    let ticking = true;
    const tick = () => {
      turnsAt.push(read);
      if (ticking) setImmediate(tick);
    };
    // 600 items of 0.1 ms: 60 ms of reading at least, however loaded the machine.
    const schema = z.object({ id: z.string() }).transform((item) => {
      read++;
      busy(0.1);
      return item;
    });
    setImmediate(tick);
    const page = await transport.list(schema, { method: 'GET', path: '/items' });
    ticking = false;
    expect(page.items.map((item) => item.id)).toEqual(items.map((item) => item.id));
    const during = turnsAt.filter((at) => at > 0 && at < items.length);
    expect(during.length).toBeGreaterThanOrEqual(3);
  });
});
