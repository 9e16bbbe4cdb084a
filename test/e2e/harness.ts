// End-to-end harness (Node): `serve` started as a user would, on a fresh demo workspace in a
// temporary PRESSROOM_HOME, and Chromium (test/support/browser.ts says which) driven by
// playwright-core. Every flow saves a screenshot under test-results/.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { findBrowser } from '../support/browser';
import { startCli } from '../support/cli';

export const RESULTS = 'test-results';

export interface Served {
  url: string;
  origin: string;
  home: string;
  child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
}

/**
 * Runs `serve --json` on a new (or given) PRESSROOM_HOME and returns the URL it printed; from the
 * tree at `root` when given (bench:ui's baseline).
 */
export async function serve(
  options: { home?: string; args?: string[]; env?: NodeJS.ProcessEnv; root?: string } = {},
): Promise<Served> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'pressroom-e2e-'));
  const { child, firstLine } = await startCli(
    ['serve', '--json', '--port', '0', ...(options.args ?? [])],
    {
      PRESSROOM_HOME: home,
      PRESSROOM_DB: '',
      PRESSROOM_API_BASE: '',
      PRESSROOM_API_TOKEN: '',
      ...options.env,
    },
    options.root,
  );
  // Drain stderr so a chatty server never blocks on a full pipe.
  child.stderr.resume();
  const { url } = JSON.parse(firstLine) as { url: string };
  return {
    url,
    origin: new URL(url).origin,
    home,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      // Only a home made here is removed; a given one belongs to the caller.
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Chromium headless; with `scrollbars`, drawn as a user sees them (Playwright hides them). */
export async function launchChromium(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  const { executablePath } = await findBrowser();
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    ...(options.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
  });
}

/**
 * A page on the app, with its console errors and CSP violations collected so a flow can assert
 * there were none.
 */
export async function openApp(
  browser: Browser,
  url: string,
  options: {
    viewport?: { width: number; height: number };
    beforeLoad?: (page: Page) => Promise<unknown>;
  } = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  // tsx compiles functions handed to page.evaluate with a `__name` helper for their names;
  // give the page that helper so they run there as written.
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  await options.beforeLoad?.(page);
  const problems: string[] = [];
  page.on('console', (message) => {
    // A failed load is reported below with its URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return { page, problems };
}

/**
 * Runs one of the post editor's actions from its More menu (all but the main one live there), once
 * it is enabled: a queue action waits for the bot's posting schedule.
 */
export async function chooseFromMore(editor: Locator, name: string): Promise<void> {
  await editor.getByRole('button', { name: 'More' }).click();
  const item = editor.getByRole('menuitem', { name: new RegExp(`^${name}\\b`) });
  await item.and(editor.locator(':not([aria-disabled="true"])')).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: false });
}

/** Calls the core over the served contract, as the page does, and returns the value. */
export async function callCore<T>(
  served: Served,
  operation: string,
  input: unknown = {},
): Promise<T> {
  const token = new URL(served.url).hash.replace('#token=', '');
  const response = await fetch(`${served.origin}/api/call/${operation}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  });
  const result = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!result.ok) throw new Error(`${operation}: ${result.error?.message}`);
  return result.value as T;
}
