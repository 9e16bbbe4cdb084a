// `platform`: the reference server from the command line.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
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
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
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
  });
});
