// Browser. Arrow keys in the month grid, as the WAI-ARIA grid pattern moves: each day holds its
// number and its posts (elements with data-nav, in order); Up and Down walk them and go on to the
// day above or below, Left and Right go to the same place in the day beside, Home and End to the
// week's first and last day. Only one of them is in the Tab order (roving tabindex, MonthDay), so
// the calendar is one Tab stop, not one per post.

const DAYS_A_WEEK = 7;

/** What a day holds that the keys reach: its number, its posts, its "+N more". */
function itemsOf(day: Element): HTMLElement[] {
  return [...day.querySelectorAll<HTMLElement>('[data-nav]')];
}

/** The element the key moves to from `from`, or null when the key is not the grid's or leads out. */
export function gridTarget(key: string, from: HTMLElement, grid: HTMLElement): HTMLElement | null {
  const day = from.closest('[role="gridcell"]');
  if (!day) return null;
  const days = [...grid.querySelectorAll('[role="gridcell"]')].filter(
    (cell) => itemsOf(cell).length > 0,
  );
  const at = days.indexOf(day);
  const items = itemsOf(day);
  const index = items.indexOf(from);
  if (at < 0 || index < 0) return null;
  const sameRow = at - (at % DAYS_A_WEEK);
  const place = (target: Element | undefined, wanted: number): HTMLElement | null => {
    const reached = target ? itemsOf(target) : [];
    return reached[Math.min(wanted, reached.length - 1)] ?? null;
  };
  switch (key) {
    case 'ArrowDown':
      return items[index + 1] ?? place(days[at + DAYS_A_WEEK], 0);
    case 'ArrowUp':
      return index > 0 ? (items[index - 1] ?? null) : place(days[at - DAYS_A_WEEK], Infinity);
    case 'ArrowRight':
      return place(days[at + 1], index);
    case 'ArrowLeft':
      return place(days[at - 1], index);
    case 'Home':
      return place(days[sameRow], 0);
    case 'End':
      return place(days[Math.min(days.length - 1, sameRow + DAYS_A_WEEK - 1)], 0);
    default:
      return null;
  }
}
