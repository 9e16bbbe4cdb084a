// The app in Chromium on the demo workspace: it starts under the strict CSP with no console
// errors, every screen opens, and an axe-core scan finds no serious accessibility problems.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENS } from '../../renderer/src/state/shell.svelte';
import { launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Serious and critical axe findings on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, so the page's CSP does not have to allow it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(
            ', ',
          )}${violation.nodes.length > 3 ? ` and ${violation.nodes.length - 3} more` : ''}`,
    );
}

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
