// Browser. @event-calendar marks its views as an ARIA table (or list) but draws its events in a
// layer outside the day cells and puts its toolbar inside the table, which no screen reader can
// read as a table (axe: aria-required-children, aria-required-parent). Wrapping elements would
// break the library's layout and its own DOM updates, so the structure is stated honestly instead:
// no table; each event is a button whose name carries its status, bot, day and time; the list
// view stays a list of days.

const TABLE_ROLES = ['table', 'rowgroup', 'row', 'cell', 'columnheader', 'rowheader'];
const TABLE_ATTRIBUTES = ['aria-colindex', 'aria-rowindex', 'aria-colspan', 'aria-rowspan'];
const SELECTOR = TABLE_ROLES.map((role) => `[role="${role}"]`).join(', ');

function restate(calendar: HTMLElement): void {
  // The library sets the root's role again whenever the view changes, so this runs on each redraw.
  calendar.removeAttribute('role');
  for (const element of calendar.querySelectorAll(SELECTOR)) {
    element.setAttribute('role', 'none');
    // Table positions mean nothing without the table.
    for (const attribute of TABLE_ATTRIBUTES) element.removeAttribute(attribute);
  }
  const listDays = calendar.querySelector<HTMLElement>('.ec-list > .ec-main');
  if (listDays && listDays.getAttribute('role') !== 'list') listDays.setAttribute('role', 'list');
}

/** Keeps the calendar under `root` free of the library's broken table roles as it redraws. */
export function calendarRoles(root: HTMLElement): () => void {
  let queued = false;
  const update = () => {
    queued = false;
    root.querySelectorAll<HTMLElement>('.ec').forEach(restate);
  };
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(update);
  });
  // Only added and removed nodes are watched, so the attributes written here never wake it.
  observer.observe(root, { childList: true, subtree: true });
  update();
  return () => observer.disconnect();
}
