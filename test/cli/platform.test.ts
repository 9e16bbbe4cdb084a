// `platform`: the reference server from the command line.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startPlatformCli } from '../support/cli';

describe('cli platform', () => {
  it('prints base URL and token as the first JSON line, serves, and stops cleanly on SIGTERM', async () => {
    const { child, ...started } = await startPlatformCli([
      '--seed',
      'demo',
      '--plan',
      'pro',
      '--admin',
    ]);
    try {
      expect(started.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const response = await fetch(`${started.base_url}/products?per_page=1`, {
        headers: { Authorization: `Bearer ${started.token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('600');
      expect(started.admin_token).toMatch(/^adm_/);

      // The API's OpenAPI document, without a token, valid as OpenAPI 3.1 to Redocly's lint.
      const openapi = await fetch(`${started.base_url}/openapi.json`);
      expect(openapi.status).toBe(200);
      const document = (await openapi.json()) as { openapi: string; paths: object };
      expect(document.openapi).toBe('3.1.0');
      expect(Object.values(document.paths).flatMap((item) => Object.keys(item))).toHaveLength(17);
      mkdirSync('test-results', { recursive: true });
      writeFileSync('test-results/served-openapi.json', JSON.stringify(document));
      const lint = spawnSync(
        process.execPath,
        ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'test-results/served-openapi.json'],
        { encoding: 'utf8' },
      );
      expect([lint.status, lint.stdout + lint.stderr]).toEqual([
        0,
        expect.stringContaining('Your API description is valid'),
      ]);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('speaks another platform’s conventions when asked, and sync reads all of it', async () => {
    const { child, ...started } = await startPlatformCli([
      ...['--seed', 'demo', '--plan', 'enterprise', '--envelope', 'bare', '--paging', 'link'],
      ...['--page-cap', '50', '--ids', 'big', '--times', 'epoch-string'],
    ]);
    try {
      const response = await fetch(`${started.base_url}/bots?per_page=200`, {
        headers: { Authorization: `Bearer ${started.token}` },
      });
      expect(response.headers.get('link')).toBeNull(); // 3 bots: one page
      const text = await response.text();
      expect(text).toMatch(/^\[\{"id":9007199254740993,/);
      expect(text).toMatch(/"created_at":"\d{10}"/);
      const orders = await fetch(`${started.base_url}/orders?per_page=200`, {
        headers: { Authorization: `Bearer ${started.token}` },
      });
      expect(orders.headers.get('link')).toMatch(
        /^<\/api\/v1\/orders\?per_page=50&page=2>; rel="next"$/,
      );

      const sync = await runCli(['sync', '--json'], {
        PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-cli-')), 'workspace.sqlite'),
        PRESSROOM_API_BASE: started.base_url,
        PRESSROOM_API_TOKEN: started.token,
      });
      expect(sync.code).toBe(0);
      expect(JSON.parse(sync.stdout)).toEqual({
        bots: 3,
        posts: 60,
        products: 40,
        orders: 80,
        subscribers: 300,
      });
    } finally {
      child.kill('SIGTERM');
    }
    await once(child, 'exit');
  });

  it('serves a limit below the plan, without a Limit header, a Reset in another form, a clock ahead', async () => {
    const { child, ...started } = await startPlatformCli([
      '--rate-limit',
      '20',
      '--window-ms',
      '4000',
      '--no-limit-header',
      '--reset-format',
      'epoch-milliseconds',
      '--clock-offset-ms',
      '90000',
    ]);
    try {
      const response = await fetch(`${started.base_url}/bots`, {
        headers: { Authorization: `Bearer ${started.token}` },
      });
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(response.headers.get('x-ratelimit-remaining')).toBe('19');
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const serverNow = Date.now() + 90_000;
      expect(reset).toBeGreaterThan(serverNow - 1_000);
      expect(reset).toBeLessThanOrEqual(serverNow + 4_000);
    } finally {
      child.kill('SIGTERM');
    }
    const bad = await runCli(['platform', '--clock-offset-ms', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--clock-offset-ms must be a whole number');
  });

  it('has --help for the program and the command', async () => {
    const program = await runCli(['--help']);
    expect(program.code).toBe(0);
    expect(program.stdout).toContain('platform');
    expect(program.stdout).toContain('PRESSROOM_API_TOKEN');
    const command = await runCli(['platform', '--help']);
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('--window-ms');
    expect(command.stdout).toContain('{base_url}/openapi.json, without a token');
  });

  it('prints its version, the one package.json names', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('refuses bad options with one line naming the cause and exit code 2', async () => {
    const port = await runCli(['platform', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr.trim()).toBe(
      'pressroom: --port must be a whole number from 0 to 65535, not "eighty"',
    );
    const plan = await runCli(['platform', '--plan', 'gold']);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain("'gold' is invalid");
    const apiBase = await runCli(['platform', '--port', '0'], { PRESSROOM_API_BASE: 'ftp://x' });
    expect(apiBase.code).toBe(2);
    expect(apiBase.stderr.trim()).toBe(
      'pressroom: --api-base: must be an http or https URL; --api-base: must end in /api/v1',
    );
    const clear = await runCli(['platform', '--port', '0'], {
      PRESSROOM_API_BASE: 'http://platform.example/api/v1',
    });
    expect(clear.code).toBe(2);
    expect(clear.stderr.trim()).toBe(
      'pressroom: --api-base: must start with https://: over http:// the API token travels in clear text (only localhost, 127.0.0.1 or [::1] may use http)',
    );
  });
});
