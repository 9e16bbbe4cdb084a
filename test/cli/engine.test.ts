// The engine's CLI commands against a reference server, as a user would run them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CLI_ENTRY, runCli } from '../support/cli';
import { startTestPlatform } from '../support/platform';

describe('cli posts, publish, status, queue', () => {
  it('adds posts, publishes them, and reports', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const env = {
      PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-cli-')), 'workspace.sqlite'),
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    };
    const added = await runCli(
      [
        'posts',
        'add',
        '--text',
        'From the CLI',
        '--bot',
        'bot_1',
        '--mode',
        'publish_now',
        '--json',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      id: 1,
      status: 'scheduled',
      text: 'From the CLI',
    });
    const bad = await runCli(
      ['posts', 'add', '--text', 'Gap', '--at', '2026-03-29 02:30', '--zone', 'Europe/Berlin'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'pressroom: at: 2026-03-29 02:30 does not exist in Europe/Berlin (the clocks skip it for daylight saving time)',
    );

    const published = await runCli(['publish', '--json'], env);
    expect(published.code).toBe(0);
    const summary = JSON.parse(published.stdout) as Record<string, number>;
    expect(summary).toMatchObject({ published: 1, failed: 0, requests: 1, rate_limited: 0 });
    expect(summary.duration_ms).toBeGreaterThanOrEqual(0);
    expect(published.stderr).toContain('published 1');

    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      outbox: Record<string, number>;
      posts: Record<string, number>;
    };
    expect(status.outbox.done).toBe(1);
    expect(status.posts.published).toBe(1);
    const list = JSON.parse((await runCli(['posts', 'list', '--json'], env)).stdout) as {
      status: string;
      remoteId: string;
    }[];
    expect(list).toMatchObject([
      { status: 'published', remoteId: expect.stringMatching(/^post_/) },
    ]);

    const retry = await runCli(['queue', 'retry', '1'], env);
    expect(retry.code).toBe(1);
    expect(retry.stderr.trim()).toBe(
      'pressroom: Queue item 1 is done; only items that are failed, cancelled or waiting to retry can be retried',
    );
  });

  it('says what is missing when no account is set', async () => {
    const env = {
      PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-cli-')), 'w.sqlite'),
      PRESSROOM_API_BASE: '',
      PRESSROOM_API_TOKEN: '',
    };
    const result = await runCli(['publish'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No platform account is set');
  });

  it('publishes as a daemon with --watch, and reports what it did when stopped', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const env = {
      PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-cli-')), 'workspace.sqlite'),
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    };
    await runCli(
      ['posts', 'add', '--text', 'Watched', '--bot', 'bot_1', '--mode', 'publish_now'],
      env,
    );
    const child = spawn(process.execPath, [...CLI_ENTRY, 'publish', '--watch', '--json'], {
      env: { ...process.env, ...env },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('published 1')) resolve();
      }),
    );
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ published: 1, failed: 0 });
  });
});

describe('cli import and export', () => {
  it('exits 1 with the bad rows written to --errors, 2 for an unusable file, 0 once fixed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-cli-import-'));
    const env = {
      PRESSROOM_DB: join(folder, 'w.sqlite'),
      PRESSROOM_API_BASE: '',
      PRESSROOM_API_TOKEN: '',
    };
    const bad = join(folder, 'products.csv');
    writeFileSync(bad, 'sku,name,price\nA,Loaf,3.50\nB,Bun,abc\n');
    const refused = await runCli(
      ['import', 'products', bad, '--json', '--errors', join(folder, 'bad.csv')],
      env,
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      kind: 'products',
      rows: 2,
      inserted: 0,
      invalid: 1,
      errors: [
        {
          row: 3,
          column: 'price',
          value: 'abc',
          message: 'Price "abc" is not a price such as 19.99 or 1.299,00',
        },
      ],
      batch: null,
    });
    expect(readFileSync(join(folder, 'bad.csv'), 'utf8')).toBe(
      'sku,name,price,error\r\nB,Bun,abc,"price: Price ""abc"" is not a price such as 19.99 or 1.299,00"\r\n',
    );
    expect((await runCli(['import', 'products', join(folder, 'missing.csv')], env)).code).toBe(2);

    writeFileSync(bad, 'sku,name,price\nA,Loaf,3.50\nB,Bun,1.20\n');
    const written = await runCli(['import', 'products', bad, '--json'], env);
    expect(written.code).toBe(0);
    const { batch } = JSON.parse(written.stdout) as { batch: string };
    expect((await runCli(['export', 'products', join(folder, 'out.csv')], env)).stdout).toContain(
      'Wrote 2 products',
    );
    const undone = await runCli(['import', 'undo', batch, '--json'], env);
    expect(JSON.parse(undone.stdout)).toEqual({ batch, kind: 'products', removed: 2, restored: 0 });
  });
});
