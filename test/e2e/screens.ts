// Steps several e2e flows share (Node, Vitest): going to a screen by its link, and axe over the
// page in both themes.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousViolations } from './axe';

/** Opens a screen from the navigation (its link may carry a count) and waits for its heading. */
export async function go(page: Page, screen: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: new RegExp(`^${screen}`) })
    .click();
  await page.getByRole('heading', { level: 1, name: screen }).waitFor();
}

/** axe over the page as it is, then again in dark mode; the page is left light. */
export async function bothThemesClean(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
    .toBe('light');
}
