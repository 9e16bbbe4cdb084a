// `check`: the connection check from the command line, as a user runs it.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { startTestPlatform } from '../support/platform';

describe('cli check', () => {
  it('reports how the server speaks, as JSON and in words; exits 1 when the token is refused', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      rateHeaders: { reset: 'delta-seconds', limit: false },
    });
    const env = {
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    };
    const json = await runCli(['check', '--json'], env);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      token: { accepted: true },
      rate_limit: { reset: 'delta-seconds', limit: null, skew_ms: expect.any(Number) },
      lists: { envelope: 'data', pagination: 'page' },
      ids: 'string',
    });
    expect(report.requests).toBeLessThanOrEqual(5);

    const words = await runCli(['check'], env);
    expect(words.code).toBe(0);
    expect(words.stdout).toContain('The platform accepted the token.');
    expect(words.stdout).toContain('when the count starts again; Pressroom keeps to it');

    const refused = await runCli(['check', '--json'], {
      ...env,
      PRESSROOM_API_TOKEN: 'tok_wrong_one',
    });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ token: { accepted: false, status: 401 } });
    expect(refused.stdout + refused.stderr).not.toContain('tok_wrong_one');

    const missing = await runCli(['check'], { PRESSROOM_API_BASE: '', PRESSROOM_API_TOKEN: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('check needs --api-base and --token');
  });

  it('says the ids are mixed when bots have numeric ids and posts string ones', async () => {
    const platform = await startTestPlatform({ seed: 'demo', conventions: { ids: 'mixed' } });
    const run = await runCli(['check', '--json'], {
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ ids: 'mixed', id_types: { bots: 'number', posts: 'string' } });
    expect(report.requests).toBeLessThanOrEqual(5);
    const words = await runCli(['check'], {
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    });
    expect(words.stdout).toContain('Ids: mixed (bots: numbers, posts: strings).');
  });

  it('reads the token from stdin with --token -, and warns when one is typed on the command line', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { token, baseUrl } = platform.server;
    const env = { PRESSROOM_API_BASE: baseUrl, PRESSROOM_API_TOKEN: '' };
    const piped = await runCli(['check', '--json', '--token', '-'], env, `${token}\n`);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ token: { accepted: true } });
    expect(piped.stderr).not.toMatch(/command line/);

    const typed = await runCli(['check', '--json', '--token', token], env);
    expect(typed.code).toBe(0);
    expect(typed.stderr).toMatch(
      /--token on the command line is visible to every user of this computer.*PRESSROOM_API_TOKEN.*--token -/,
    );
    expect(typed.stderr).not.toContain(token);

    // From the environment: nothing to warn of.
    const fromEnv = await runCli(['check', '--json'], { ...env, PRESSROOM_API_TOKEN: token });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).not.toMatch(/command line/);
  });
});
