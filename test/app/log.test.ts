// The desktop log: secrets and credential shapes redacted, and rotation by size keeping N files.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog, redact } from '../../main/app/log';

describe('log', () => {
  it('redacts known secrets and anything shaped like a credential', () => {
    const token = 'pk_abcdefghijklmnop';
    expect(redact(`sent ${token} twice: ${token}`, [token, null])).toBe(
      'sent [redacted] twice: [redacted]',
    );
    expect(redact('Authorization: Bearer sk_live_123456', [])).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redact('GET /api/events?token=abc123&x=1', [])).toBe(
      'GET /api/events?token=[redacted]&x=1',
    );
    expect(redact('{"apiKey":"k-999","plan":"pro"}', [])).toBe(
      '{"apiKey":"[redacted]","plan":"pro"}',
    );
    // Too short to be a token: redacting it would hide ordinary words.
    expect(redact('the plan is pro', ['pro'])).toBe('the plan is pro');
  });

  it('writes timestamped lines with details, with the secret it is told of hidden', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pressroom-log-')), 'logs', 'main.log');
    let secret: string | null = null;
    const echoed: string[] = [];
    const log = createLog({
      file,
      secrets: () => [secret],
      now: () => 0,
      echo: (line) => echoed.push(line),
    });
    secret = 'tok_0123456789';
    log.error('failed with', { token: secret, status: 401 });
    expect(readFileSync(file, 'utf8')).toBe(
      "1970-01-01T00:00:00.000Z [error] failed with { token: '[redacted]', status: 401 }\n",
    );
    expect(echoed).toEqual([readFileSync(file, 'utf8').trimEnd()]);
  });

  it('rotates by size, keeping the newest files', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-log-'));
    const file = join(folder, 'main.log');
    const log = createLog({ file, maxBytes: 200, keep: 2, now: () => 0 });
    for (let line = 1; line <= 12; line++) log.info(`line ${line} ${'.'.repeat(40)}`);
    const current = readFileSync(file, 'utf8');
    expect(current).toContain('line 12');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(200);
    expect(readFileSync(join(folder, 'main.1.log'), 'utf8')).toMatch(/line 9 /);
    expect(existsSync(join(folder, 'main.2.log'))).toBe(true);
    expect(existsSync(join(folder, 'main.3.log'))).toBe(false);
    expect(readFileSync(join(folder, 'main.2.log'), 'utf8')).not.toContain('line 1 ');
  });
});
