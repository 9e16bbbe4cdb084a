// A team server of a newer version, met from Settings → Team in Chromium: the team server here
// speaks protocol 2 (TEAM_PROTOCOL mocked in this test process), the web host a real protocol 1 in
// its own process. Joining and creating a team are refused with the sentence that says to update
// this desktop, shown as the form's error, not under the token or the key; the workspace file is
// unchanged and the server made no team. (The other way round: test/team/versions.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TeamServerKeys } from '../../main/team/server-keys';
import type * as SharedTeam from '../../shared/team';
import { formatTeamLink } from '../../shared/team';
import { startTestTeam } from '../support/team';
import type { TestTeam } from '../support/team';
import { everyRow } from '../support/team-files';
import { seriousViolations } from './axe';
import { launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

vi.mock('../../shared/team', async (original) => ({
  ...(await original<typeof SharedTeam>()),
  TEAM_PROTOCOL: 2,
}));

const UPDATE_DESKTOP =
  'This team server speaks protocol 2, newer than this desktop’s 1: update Pressroom on this desktop. This workspace was not changed.';

describe('a team server of a newer version, from Settings → Team', () => {
  let team: TestTeam;
  let host: Served;
  let browser: Browser;
  const file = join(mkdtempSync(join(tmpdir(), 'prp-')), 'workspace.sqlite');

  beforeAll(async () => {
    team = await startTestTeam();
    [browser, host] = await Promise.all([launchChromium(), serve({ env: { PRESSROOM_DB: file } })]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await team?.close();
  });

  it('refuses join and create with the sentence as the form’s error, and changes nothing', async () => {
    const { page, problems } = await openApp(browser, host.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    const section = page.getByRole('region', { name: 'Team' });
    await section.getByText(/This workspace is yours alone/).waitFor();
    const before = everyRow(file);

    const join = section.locator('form', { hasText: 'Join a team' });
    await join
      .getByLabel('Team link')
      .fill(formatTeamLink({ url: team.server.url, team: team.teamId }));
    const token = join.getByLabel('Your member token');
    await token.fill(team.ownerToken);
    await join.getByRole('button', { name: 'Join the team' }).click();
    await expect(join.getByRole('alert').textContent({ timeout: 15_000 })).resolves.toBe(
      UPDATE_DESKTOP,
    );
    await expect(token.getAttribute('aria-invalid')).resolves.toBeNull();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'team-version');

    const create = section.locator('form', { hasText: 'Create a team from this workspace' });
    await create.getByLabel('Team server').fill(team.server.url);
    await create.getByLabel('Server key').fill(new TeamServerKeys(team.server.db).issue());
    await create.getByLabel('Team name').fill('Second');
    await create.getByLabel('Your name').fill('Ada');
    await create.getByRole('button', { name: 'Create the team' }).click();
    await expect(create.getByRole('alert').textContent({ timeout: 15_000 })).resolves.toBe(
      UPDATE_DESKTOP,
    );
    await expect(create.getByLabel('Server key').getAttribute('aria-invalid')).resolves.toBeNull();

    expect(everyRow(file)).toBe(before);
    expect(team.server.db.prepare('SELECT name FROM teams').all()).toEqual([{ name: 'Test team' }]);
    await section.getByText(/This workspace is yours alone/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
