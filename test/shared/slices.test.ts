// Long work in slices (#32): each slice takes what the budget fits at the last slice's pace,
// within its bounds, and the event loop turns between slices. A fake clock: counted, not timed.
import { describe, expect, it } from 'vitest';
import { SliceSizer, inSlices } from '../../shared/slices';

/** A clock on which each unit of work takes `msPerUnit`, and the turns it was asked for. */
function fakeClock(msPerUnit: number) {
  let time = 0;
  const clock = {
    turns: 0,
    now: () => time,
    turn: async () => {
      clock.turns++;
    },
    work: (units: number) => (time += units * msPerUnit),
  };
  return clock;
}

describe('inSlices', () => {
  it('does every item once, in order, in slices the budget fits, with a turn between each', async () => {
    const clock = fakeClock(0.5);
    const items = Array.from({ length: 1_000 }, (_, index) => index);
    const slices: number[][] = [];
    const turns = await inSlices(
      items,
      new SliceSizer({ first: 4, min: 1, max: 100 }, 8),
      clock,
      (slice) => {
        slices.push([...slice]);
        clock.work(slice.length);
      },
    );
    expect(slices.flat()).toEqual(items);
    // 8 ms at 0.5 ms a unit: 16 a slice after the first 4.
    expect(slices[0]).toHaveLength(4);
    expect(new Set(slices.slice(1, -1).map((slice) => slice.length))).toEqual(new Set([16]));
    expect(turns).toBe(slices.length - 1);
    expect(clock.turns).toBe(turns);
  });

  it('keeps each slice within its bounds however fast or slow the work', async () => {
    for (const [msPerUnit, expected] of [
      [0.0001, 100],
      [50, 2],
    ] as const) {
      const clock = fakeClock(msPerUnit);
      const sizes: number[] = [];
      await inSlices(
        Array(500).fill(0),
        new SliceSizer({ first: 10, min: 2, max: 100 }, 8),
        clock,
        (slice) => {
          sizes.push(slice.length);
          clock.work(slice.length);
        },
      );
      expect(sizes.slice(1, -1).every((size) => size === expected)).toBe(true);
    }
  });

  it('grows a slice at most by its growth factor after a quick one', async () => {
    // The first slice is quick (a warm moment), every later one runs at the steady pace: sized
    // by the quick pace alone, the second slice would take 80 units, 40 ms of an 8 ms budget.
    let quick = true;
    let time = 0;
    const clock = { now: () => time, turn: async () => {} };
    const sizes: number[] = [];
    await inSlices(
      Array(200).fill(0),
      new SliceSizer({ first: 10, min: 1, max: 100, growth: 2 }, 8),
      clock,
      (slice) => {
        sizes.push(slice.length);
        time += slice.length * (quick ? 0.05 : 0.5);
        quick = false;
      },
    );
    // 8 ms at 0.5 ms a unit is 16 a slice: 10, then 20 at most (10 ms), then back to 16.
    expect(sizes.slice(0, 4)).toEqual([10, 20, 16, 16]);
  });

  it('lets no turn in for work that fits one slice, nor for none', async () => {
    const clock = fakeClock(0.1);
    const sizer = new SliceSizer({ first: 50, min: 1, max: 50 });
    expect(await inSlices([1, 2, 3], sizer, clock, (slice) => clock.work(slice.length))).toBe(0);
    expect(await inSlices([], sizer, clock, () => clock.work(1))).toBe(0);
    expect(clock.turns).toBe(0);
  });
});
