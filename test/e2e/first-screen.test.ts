// The first screen holds still: once the page has painted, nothing on it moves as the settings,
// the status, the calendar's posts and the unscheduled drafts arrive. Chromium reports every
// movement of laid-out content as a `layout-shift` performance entry (what Lighthouse sums into
// cumulative layout shift); none may come after the first contentful paint.
import { describe, expect, it } from 'vitest';
import { openApp } from './harness';
import { useServedApp } from './served-app';

interface Shift {
  at: number;
  value: number;
  moved: string[];
}

describe('the first screen', () => {
  const app = useServedApp();

  it('does not shift after its first paint', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1024, height: 700 },
    ]) {
      const { page, problems } = await openApp(app.browser, app.served.url, {
        viewport,
        // Before the app's scripts, so no entry is missed.
        beforeLoad: (page) =>
          page.addInitScript(() => {
            const shifts: Shift[] = [];
            (window as unknown as { shifts: Shift[] }).shifts = shifts;
            const describe = (node: Node | null) =>
              node instanceof Element
                ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`
                : String(node?.nodeName);
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as (PerformanceEntry & {
                value: number;
                hadRecentInput: boolean;
                sources: { node: Node | null }[];
              })[])
                if (!entry.hadRecentInput)
                  shifts.push({
                    at: entry.startTime,
                    value: entry.value,
                    moved: entry.sources.map((source) => describe(source.node)),
                  });
            }).observe({ type: 'layout-shift', buffered: true });
          }),
      });
      // Everything the first screen waits for has come: the demo banner, the status, the month's
      // posts and the unscheduled drafts.
      await page.getByText('Demo workspace').waitFor();
      await page.locator('.pill.ok').waitFor();
      await page.locator('.month-post').first().waitFor();
      await page.getByRole('heading', { name: /Unscheduled drafts/ }).waitFor();
      // A frame or two for anything still to settle.
      await page.waitForTimeout(1000);
      const { firstPaint, shifts } = await page.evaluate(() => ({
        firstPaint:
          performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
        shifts: (window as unknown as { shifts: Shift[] }).shifts,
      }));
      expect(firstPaint, 'the page painted').toBeLessThan(Infinity);
      expect(
        shifts.filter((shift) => shift.at >= firstPaint),
        `${viewport.width}×${viewport.height}`,
      ).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('loads no script it can do without: the Temporal polyfill only where the browser has none', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page.locator('.month-post').first().waitFor();
    const scripts = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({ name: entry.name, bytes: entry.decodedBodySize })),
    );
    expect(
      scripts.map((script) => script.name).filter((name) => /temporal-polyfill/.test(name)),
    ).toEqual([]);
    // The calendar's screen with its library and Svelte: 250 KiB while it carried the polyfill,
    // 190 KiB without it, 196 KiB with the team's banner, presence and approval marks (their
    // schemas and the review screen load when opened).
    const kib = scripts.reduce((sum, script) => sum + script.bytes, 0) / 1024;
    expect(kib).toBeLessThan(200);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the month without @event-calendar, whose code loads when the Week view opens', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page.locator('.month-post').first().waitFor();
    // The library's code, found by what it is (its class names), whatever its chunk is called.
    const libraryLoaded = () =>
      page.evaluate(async () => {
        const scripts = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.endsWith('.js'));
        const texts = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
        return texts.some((text) => text.includes('ec-time-grid'));
      });
    expect(await page.getByRole('grid').getAttribute('aria-label')).toMatch(/\d{4}/);
    expect(await libraryLoaded()).toBe(false);
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await page.locator('.ec-time-grid').waitFor();
    expect(await libraryLoaded()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loads a screen's code when its link is pointed at or focused, not before", async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page.locator('.month-post').first().waitFor();
    const loaded = (name: string) =>
      page.evaluate(
        (name) =>
          performance
            .getEntriesByType('resource')
            .some((entry) => new URL(entry.name).pathname.includes(`/${name}-`)),
        name,
      );
    expect(await loaded('CatalogScreen')).toBe(false);
    await page.getByRole('link', { name: 'Catalog' }).hover();
    await expect.poll(() => loaded('CatalogScreen')).toBe(true);
    expect(await loaded('QueueScreen')).toBe(false);
    await page.getByRole('link', { name: 'Queue' }).focus();
    await expect.poll(() => loaded('QueueScreen')).toBe(true);
    // Only loaded: the calendar is still the screen shown.
    expect(await page.getByRole('link', { name: 'Calendar' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
