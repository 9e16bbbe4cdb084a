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
});
