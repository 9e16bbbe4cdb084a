// A long page of a list is read in slices (#32): the app's other calls get turns of the event
// loop while its items go through their schema, where one page of 200 orders held the core
// 10–45 ms. Counted, not timed: turns between the first item read and the last.
import { readFile } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ITEMS_PER_SLICE, Transport } from '../../main/platform/transport';

/** Holds the thread about `ms`, as a costly schema does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** `count` items, and a transport whose every list answer is one page of them. */
function onePageOf(count: number) {
  const items = Array.from({ length: count }, (_, i) => ({ id: `it_${i}` }));
  const transport = new Transport({
    baseUrl: 'https://platform.example/api/v1',
    token: 'pk_test',
    fetch: (async () =>
      new Response(JSON.stringify({ data: items, has_more: false }), {
        headers: { 'Content-Type': 'application/json' },
      })) as typeof fetch,
  });
  return { items, transport };
}

/** A schema that counts the items it reads and takes about 0.1 ms for each. */
function countingSchema(counted: { read: number }) {
  return z.object({ id: z.string() }).transform((item) => {
    counted.read++;
    busy(0.1);
    return item;
  });
}

describe('a page of a list', () => {
  it('lets the event loop turn while its items are read, and keeps every item in order', async () => {
    const { items, transport } = onePageOf(600);
    const turnsAt: number[] = [];
    const counted = { read: 0 };
    let ticking = true;
    const tick = () => {
      turnsAt.push(counted.read);
      if (ticking) setImmediate(tick);
    };
    // 600 items of 0.1 ms: 60 ms of reading at least, however loaded the machine.
    const schema = countingSchema(counted);
    setImmediate(tick);
    const page = await transport.list(schema, { method: 'GET', path: '/items' });
    ticking = false;
    expect(page.items.map((item) => item.id)).toEqual(items.map((item) => item.id));
    const during = turnsAt.filter((at) => at > 0 && at < items.length);
    expect(during.length).toBeGreaterThanOrEqual(3);
  });

  it('lets a timer that fell due during a slice in before the next, even after an I/O callback', async () => {
    // A page's body arrives in an I/O callback; one setImmediate from there runs in the same
    // turn of the event loop, before due timers, so two slices ran as one (#32).
    const { items, transport } = onePageOf(400);
    const counted = { read: 0 };
    let timerAt: number | null = null;
    const schema = countingSchema(counted);
    const page = await new Promise<Awaited<ReturnType<typeof transport.list>>>((resolve, reject) =>
      readFile(import.meta.filename, () => {
        setTimeout(() => (timerAt = counted.read), 0);
        // Its first slice runs in this callback's turn, and the timer is due by its end.
        transport.list(schema, { method: 'GET', path: '/items' }).then(resolve, reject);
      }),
    );
    expect(page.items).toHaveLength(items.length);
    expect(timerAt).toBe(ITEMS_PER_SLICE.first);
  });
});
