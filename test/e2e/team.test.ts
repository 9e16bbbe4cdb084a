// A team in Chromium: a team server started here, two web hosts on two workspace files joined to
// it. A post typed in one appears in the other's calendar; both banners say connected; Settings →
// Team lists both members with their roles.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinedTeamFile, startTestTeam } from '../support/team';
import type { TestTeam } from '../support/team';
import { seriousViolations } from './axe';
import { chooseFromMore, launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

describe('a team in Chromium', () => {
  let team: TestTeam;
  let hosts: Served[] = [];
  let browser: Browser;

  beforeAll(async () => {
    team = await startTestTeam();
    const files = [
      joinedTeamFile(team, team.ownerToken),
      joinedTeamFile(team, team.invite('editor', 'Bea')),
    ];
    [browser, ...hosts] = await Promise.all([
      launchChromium(),
      ...files.map((file) => serve({ env: { PRESSROOM_DB: file } })),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(hosts.map((host) => host.stop()));
    await team?.close();
  });

  it('shows a post typed on one desktop in the other’s calendar, both connected, both members listed', async () => {
    const [ada, bea] = await Promise.all(hosts.map((host) => openApp(browser, host.url)));
    for (const { page } of [ada!, bea!])
      await page.getByText(/^Team connected/).waitFor({ timeout: 10_000 });

    await ada!.page.keyboard.press('c');
    const dialog = ada!.page.getByRole('dialog', { name: 'New post' });
    await dialog.getByLabel('Text').fill('Rye is back, says the team');
    await chooseFromMore(dialog, 'Save draft');
    await dialog.waitFor({ state: 'hidden' });

    const main = bea!.page.getByRole('main');
    await main.getByText('Rye is back, says the team').first().waitFor({ timeout: 5_000 });
    await screenshot(bea!.page, 'team-calendar');

    await bea!.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    const section = bea!.page.getByRole('region', { name: 'Team' });
    await section.getByRole('cell', { name: 'Bea', exact: true }).waitFor({ timeout: 10_000 });
    await expect(section.getByRole('row', { name: /Owner owner/ }).count()).resolves.toBe(1);
    await expect(section.getByRole('row', { name: /Bea editor/ }).count()).resolves.toBe(1);
    await section.getByText(/Team posts are published through the team server/).waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(bea!.page, 'team-settings');
    expect(await seriousViolations(bea!.page)).toEqual([]);
    expect([...ada!.problems, ...bea!.problems]).toEqual([]);
  });

  it('Settings → Team with a team joined is axe-clean at 1024×700, light and dark, the invite token shown too', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, problems } = await openApp(browser, hosts[0]!.url, {
        viewport: { width: 1024, height: 700 },
        beforeLoad: (schemed) => schemed.emulateMedia({ colorScheme: scheme }),
      });
      await page.getByText(/^Team connected/).waitFor({ timeout: 10_000 });
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: 'Settings' })
        .click();
      const section = page.getByRole('region', { name: 'Team' });
      await section.getByRole('cell', { name: 'Bea', exact: true }).waitFor({ timeout: 10_000 });
      await section.scrollIntoViewIfNeeded();
      expect(await seriousViolations(page), scheme).toEqual([]);

      await section.getByLabel('Name').fill(`Cy ${scheme}`);
      await section.getByRole('button', { name: 'Invite' }).click();
      await section.getByRole('button', { name: 'Copy token' }).waitFor({ timeout: 10_000 });
      expect(await seriousViolations(page), `${scheme}, token shown`).toEqual([]);
      await section.getByRole('button', { name: 'Done: forget the token' }).click();
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
