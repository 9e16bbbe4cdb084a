// Settings in Chromium on the demo workspace: connecting with a token the platform refuses says
// so under the token field, never shows or logs the token, keeps nothing, and leaves the demo
// workspace as it was.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import { callCore, launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

const WRONG_TOKEN = 'pr_live_wrongTOKEN_e2e_7c41d9';

describe('settings in Chromium', () => {
  let served: Served;
  let browser: Browser;
  /** Everything the server printed, to look for the token in. */
  let output = '';

  beforeAll(async () => {
    // The demo's server is on loopback, where only a developer's page may connect.
    [served, browser] = await Promise.all([
      serve({ args: ['--local-platform'] }),
      launchChromium(),
    ]);
    for (const stream of [served.child.stdout, served.child.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('says a wrong token was refused, never shows it, and stays on the demo', async () => {
    const before = await callCore<OperationResults['getSettings']>(served, 'getSettings');
    expect(before.account.mode).toBe('demo');
    const apiBase = before.account.apiBase ?? '';
    expect(apiBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const { page, problems } = await openApp(browser, served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // The summary names the demo server the form is about to be pointed at.
    const account = page.getByRole('region', { name: 'Account' });
    await account.getByText('Demo workspace on the built-in reference server').waitFor();
    await account.getByText(apiBase, { exact: true }).waitFor();

    await page.getByLabel('Base URL').fill(apiBase);
    const tokenField = page.getByLabel('API token');
    await tokenField.fill(WRONG_TOKEN);
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();

    const refusal = page.getByRole('alert').filter({ hasText: 'API token was refused' });
    await refusal.waitFor();
    const message = (await refusal.innerText()).trim();
    // The status alone: what the server said is its own text, never quoted.
    expect(message).toMatch(/^API token was refused by the platform \(401\);/);
    expect(message).toContain("copy it again from the account's API Keys settings");
    // The message sits by the token field and describes it.
    await expect(tokenField.getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = (await tokenField.getAttribute('aria-describedby')) ?? '';
    await expect(refusal.getAttribute('id')).resolves.toBeTruthy();
    expect(describedBy.split(' ')).toContain(await refusal.getAttribute('id'));
    await expect(
      page.getByRole('button', { name: 'Connect', exact: true }).isEnabled(),
    ).resolves.toBe(true);

    // The token is never shown: the field masks it, and no text or markup on the page holds it.
    await expect(tokenField.getAttribute('type')).resolves.toBe('password');
    expect(await page.locator('body').innerText()).not.toContain(WRONG_TOKEN);
    expect(await page.content()).not.toContain(WRONG_TOKEN);
    expect(await page.title()).not.toContain(WRONG_TOKEN);

    // Nothing changed: still the demo workspace on its server, and the token was not kept.
    const after = await callCore<OperationResults['getSettings']>(served, 'getSettings');
    expect(after.account).toEqual(before.account);
    await page.getByText('Demo workspace', { exact: true }).waitFor();
    await account.getByText('Demo workspace on the built-in reference server').waitFor();
    await account.getByText("The demo server's own").waitFor();
    expect(existsSync(join(served.home, 'account.json'))).toBe(false);
    expect(existsSync(join(served.home, 'token.sealed'))).toBe(false);
    for (const entry of readdirSync(served.home, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const bytes = readFileSync(join(served.home, entry.name));
      expect(bytes.includes(WRONG_TOKEN), entry.name).toBe(false);
    }
    expect(output).not.toContain(WRONG_TOKEN);
    await screenshot(page, 'settings-token-refused');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('tests the demo platform’s connection and lists how it speaks', async () => {
    const { page, problems } = await openApp(browser, served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    const account = page.getByRole('region', { name: 'Account' });
    await account.getByRole('button', { name: 'Test connection' }).click();
    const found = account.getByRole('list', { name: 'What the connection test found' });
    await found.waitFor();
    const lines = await found.getByRole('listitem').allInnerTexts();
    expect(lines[0]).toBe('The platform accepted the token.');
    expect(lines).toContain(
      'Pace: the platform says 60 requests a minute and when the count starts again; Pressroom keeps to it.',
    );
    expect(lines).toContain('Lists: read page by page, to the end.');
    // Plain words: no header names or body shapes (those are `pressroom check --json`'s).
    expect(lines.join('\n')).not.toMatch(/X-RateLimit|\{"|envelope|problem\+json/);
    await screenshot(page, 'settings-connection-test');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says where uploaded pictures are published from: the demo server’s web space', async () => {
    const { page, problems } = await openApp(browser, served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    const pictures = page.getByRole('region', { name: 'Pictures' });
    const host = await callCore<OperationResults['getMediaHost']>(served, 'getMediaHost');
    expect(host?.publicBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo-media\/$/);
    await expect
      .poll(() => pictures.innerText())
      .toContain(`sent as ${host!.publicBaseUrl}… (the demo server's own web space)`);
    expect(await pictures.innerText()).toContain(`copied into ${host!.folder}`);
    expect(problems).toEqual([]);
    await page.close();
  });
});
