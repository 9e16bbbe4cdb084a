import { describe, expect, it } from 'vitest';
import { calendarRoles } from '../../renderer/src/lib/calendar-roles';

describe('calendarRoles', () => {
  it('drops the table roles as the calendar draws and redraws, and keeps the list view a list', async () => {
    const root = document.createElement('div');
    root.innerHTML = `<div class="ec ec-month-view" role="table"><div role="row">
      <div role="columnheader" aria-colindex="1">Sun</div></div><div role="cell">1</div></div>`;
    const stop = calendarRoles(root);
    const calendar = root.querySelector('.ec');
    expect(calendar?.hasAttribute('role')).toBe(false);
    expect(root.querySelectorAll('[role="none"]')).toHaveLength(3);
    expect(root.querySelector('[aria-colindex]')).toBeNull();

    // A view change: the library sets its role again and draws the list view.
    calendar?.setAttribute('role', 'list');
    calendar?.classList.add('ec-list');
    const main = document.createElement('section');
    main.className = 'ec-main';
    main.innerHTML = '<div role="listitem">Monday</div>';
    calendar?.append(main);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the observer, then its update
    expect(calendar?.hasAttribute('role')).toBe(false);
    expect(main.getAttribute('role')).toBe('list');
    expect(main.firstElementChild?.getAttribute('role')).toBe('listitem');
    stop();
  });
});
