// The app in Chromium on the demo workspace: it starts under the strict CSP with no console
// errors, every screen opens, an axe-core scan finds no serious accessibility problems (light, and
// dark in a small window), a small window keeps the calendar's chips readable, and the keyboard
// reaches everything.
import { describe, expect, it } from 'vitest';
import { SCREENS } from '../../renderer/src/state/shell.svelte';
import { seriousViolations } from './axe';
import { openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

describe('the app in Chromium', () => {
  const app = useServedApp();

  /** The app in dark mode in a 1024×700 window, with a scan for axe findings and overflow. */
  async function openDark() {
    const { page, problems } = await openApp(app.browser, app.served.url, {
      viewport: { width: 1024, height: 700 },
      // The demo workspace's theme is "system": the page follows the browser's dark scheme.
      beforeLoad: (darkPage) => darkPage.emulateMedia({ colorScheme: 'dark' }),
    });
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    const findings: string[] = [];
    const scan = async (where: string) => {
      await page.waitForLoadState('networkidle').catch(() => undefined);
      for (const finding of await seriousViolations(page)) findings.push(`${where}: ${finding}`);
      // A screen scrolls down, never sideways; a dialog fits the window.
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('main')!;
        const dialog = document.querySelector('dialog[open]')?.getBoundingClientRect();
        return {
          sideways: main.scrollWidth > main.clientWidth + 1,
          dialogOutside: dialog !== undefined && (dialog.left < 0 || dialog.right > innerWidth),
        };
      });
      if (overflow.sideways) findings.push(`${where}: the screen scrolls sideways`);
      if (overflow.dialogOutside) findings.push(`${where}: the dialog is wider than the window`);
    };
    return { page, problems, findings, scan };
  }

  it('opens the labelled demo workspace under the CSP, with no console errors', async () => {
    const response = await fetch(app.served.origin);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const { page, problems } = await openApp(app.browser, app.served.url);
    // The banner comes with the settings, a moment after the screens.
    await page.getByText('Demo workspace').waitFor();
    // The session token leaves the address bar once read.
    expect(page.url()).not.toContain('token=');
    await screenshot(page, 'app-demo-workspace');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens every screen, and axe finds no serious or critical violation on any', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
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
      await page.getByRole('button', { name: 'Keys', exact: true }).click();
      await page.getByRole('dialog', { name: 'Calendar keys' }).waitFor();
      for (const finding of await seriousViolations(page))
        findings.push(`calendar keys: ${finding}`);
      await page.keyboard.press('Escape');
    }
    await screenshot(page, 'app-every-screen');
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
    // Every screen and view scanned in turn: minutes on a machine shared by several runs.
  }, 180_000);

  it('in dark mode in a 1024×700 window, axe (colour contrast included) finds nothing serious on any screen or dialog, and nothing is wider than the window', async () => {
    const { page, problems, findings, scan } = await openDark();
    const nav = page.getByRole('navigation', { name: 'Screens' });
    for (const screen of SCREENS) {
      await nav.getByRole('link', { name: screen.label }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await scan(screen.id);
    }
    await nav.getByRole('link', { name: 'Calendar' }).click();
    for (const view of ['Week', 'Day', 'List', 'Month']) {
      await page
        .getByRole('group', { name: 'Calendar view' })
        .getByRole('button', { name: view, exact: true })
        .click();
      await scan(`calendar ${view}`);
    }
    await page.getByRole('button', { name: 'New post', exact: true }).click();
    const editor = page.getByRole('dialog', { name: 'New post' });
    await editor.getByRole('button', { name: 'More' }).click();
    await editor.getByRole('menu', { name: 'More' }).waitFor();
    await scan('post editor');
    await page.keyboard.press('Escape');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Campaign from a brief' }).click();
    await page.getByRole('dialog', { name: 'Campaign from a brief' }).waitFor();
    await scan('campaign');
    await page.keyboard.press('Escape');
    // The tallest dialog: its buttons stay in sight in a short window.
    await nav.getByRole('link', { name: 'Bots' }).click();
    await page
      .getByRole('button', { name: /^Posting schedule of / })
      .first()
      .click();
    const schedule = page.getByRole('dialog', { name: /^Posting schedule of / });
    await schedule.getByRole('heading', { name: 'Next free slots' }).waitFor();
    await scan('posting schedule');
    const save = await schedule.getByRole('button', { name: 'Save schedule' }).boundingBox();
    const box = await schedule.boundingBox();
    expect(save!.y + save!.height).toBeLessThanOrEqual(box!.y + box!.height);
    await screenshot(page, 'app-1024-dark');
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('in dark mode at 1024×700, the calendar’s Keys dialog and the editor’s discard question are axe-clean', async () => {
    const { page, problems, findings, scan } = await openDark();
    await page.getByRole('group', { name: 'Calendar view' }).waitFor();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Calendar keys' }).waitFor();
    await scan('calendar keys');
    await screenshot(page, 'calendar-keys-dark');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New post', exact: true }).click();
    const editor = page.getByRole('dialog', { name: 'New post' });
    // Cancel with words typed asks before throwing them away.
    await editor.getByRole('textbox', { name: /Text/ }).fill('Words worth keeping');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
    await discard.waitFor();
    await scan('discard question');
    await screenshot(page, 'discard-question-dark');
    await discard.getByRole('button', { name: 'Keep editing' }).click();
    await expect(editor.getByRole('textbox', { name: /Text/ }).inputValue()).resolves.toBe(
      'Words worth keeping',
    );
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps each bot row’s buttons on one line in a 1024×700 window', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url, {
      viewport: { width: 1024, height: 700 },
    });
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Bots' })
      .click();
    await page
      .getByRole('button', { name: /^Posting schedule of / })
      .first()
      .waitFor();
    const wrapped = await page.evaluate(() =>
      [...document.querySelectorAll('tbody tr')].flatMap((row) => {
        const tops = [...row.querySelectorAll('td:last-child button')].map(
          (button) => button.getBoundingClientRect().top,
        );
        return new Set(tops).size > 1 ? [row.querySelector('td, th')?.textContent?.trim()] : [];
      }),
    );
    await screenshot(page, 'bots-1024');
    expect(wrapped).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps every chip readable in a 1024×700 window, the drafts under the calendar', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url, {
      viewport: { width: 1024, height: 700 },
    });
    const views = page.getByRole('group', { name: 'Calendar view' });
    // The month's chips are the app's; the week's events are the library's, drawn once its code
    // has loaded: each view's own are waited for and measured, never the other's on their way out.
    for (const [view, chip] of [
      ['Month', '.month-post'],
      ['Week', '.ec-event'],
    ] as const) {
      await views.getByRole('button', { name: view, exact: true }).click();
      await page.locator(`${chip} .title`).first().waitFor();
      // Each chip shows at least a few words of its post, and its whole time where it shows one.
      // Found and measured in one evaluation: a locator's evaluateAll finds the elements first,
      // and the library may draw its events anew meanwhile, leaving the found ones detached, with
      // no size.
      const chips = await page.evaluate(
        (selector) =>
          [...document.querySelectorAll(selector)].map((post) => {
            const time = post.querySelector('.time')!;
            const title = post.querySelector('.title')!;
            return {
              text: title.textContent,
              // Cut short, unlike a time left to screen readers in a narrow week column.
              timeClipped:
                time.getBoundingClientRect().width > 1 && time.scrollWidth > time.clientWidth + 1,
              titleWidth: title.getBoundingClientRect().width,
            };
          }),
        `${chip} .post`,
      );
      expect(chips.length).toBeGreaterThan(0);
      expect(chips.filter((chip) => chip.timeClipped || chip.titleWidth < 30)).toEqual([]);
      await screenshot(page, `app-1024-${view.toLowerCase()}`);
    }
    const calendar = await page.getByRole('region', { name: 'Calendar' }).boundingBox();
    const drafts = await page.getByRole('heading', { name: 'Unscheduled drafts' }).boundingBox();
    expect(drafts!.y).toBeGreaterThan(calendar!.y + calendar!.height - 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('skips to the screen, writes a new post with c from any screen, and focuses each new screen', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to the screen' });
    await expect(skip.evaluate((link) => link === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main');
    // Changing screen puts the focus on its heading, not on the link that was clicked.
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Queue' })
      .click();
    const heading = page.getByRole('heading', { level: 1, name: 'Queue' });
    await heading.waitFor();
    await expect
      .poll(() => heading.evaluate((element) => element === document.activeElement))
      .toBe(true);
    // c opens a new post on the calendar; typed into a field, it is a letter.
    await page.keyboard.press('c');
    const editor = page.getByRole('dialog', { name: 'New post' });
    await editor.waitFor();
    await editor.getByLabel('Text').pressSequentially('cc');
    await expect(editor.getByLabel('Text').inputValue()).resolves.toBe('cc');
    await expect(page.getByRole('dialog', { name: 'New post' }).count()).resolves.toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
