// The app in Chromium on the demo workspace: it starts under the strict CSP with no console
// errors, every screen opens, and an axe-core scan finds no serious accessibility problems.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENS } from '../../renderer/src/state/shell.svelte';
import { seriousViolations } from './axe';
import { launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

describe('the app in Chromium', () => {
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    [served, browser] = await Promise.all([serve(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('opens the labelled demo workspace under the CSP, with no console errors', async () => {
    const response = await fetch(served.origin);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const { page, problems } = await openApp(browser, served.url);
    await expect(page.getByText('Demo workspace').isVisible()).resolves.toBe(true);
    // The session token leaves the address bar once read.
    expect(page.url()).not.toContain('token=');
    await screenshot(page, 'app-demo-workspace');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens every screen, and axe finds no serious or critical violation on any', async () => {
    const { page, problems } = await openApp(browser, served.url);
    const findings: string[] = [];
    for (const screen of SCREENS) {
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: screen.label })
        .click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // Let the screen's first calls land before scanning.
      await page.waitForLoadState('networkidle').catch(() => undefined);
      for (const finding of await seriousViolations(page))
        findings.push(`${screen.id}: ${finding}`);
      if (screen.id !== 'calendar') continue;
      // Each calendar view is drawn differently by the library, so each is scanned.
      for (const view of ['Week', 'Day', 'List', 'Month']) {
        await page
          .getByRole('group', { name: 'Calendar view' })
          .getByRole('button', { name: view, exact: true })
          .click();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        for (const finding of await seriousViolations(page))
          findings.push(`calendar ${view}: ${finding}`);
      }
    }
    await screenshot(page, 'app-every-screen');
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
