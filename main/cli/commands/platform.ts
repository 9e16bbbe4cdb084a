// `platform`: runs the reference server of Platform API v1 until stopped (Node, CLI).
import { Option } from 'commander';
import type { Command } from 'commander';
import { waitForStopSignal } from '../../core/lifecycle';
import {
  ENVELOPES,
  ID_STYLES,
  PAGING_STYLES,
  TIME_FORMATS,
} from '../../reference-server/conventions';
import type { Conventions } from '../../reference-server/conventions';
import { FIELD_CASES } from '../../reference-server/quirks';
import type { Quirks } from '../../reference-server/quirks';
import { startPlatformServer } from '../../reference-server/server';
import type { PlatformServerOptions } from '../../reference-server/server';
import { PLANS, RESET_FORMATS } from '../../platform/wire';
import type { Plan, ResetFormat } from '../../platform/wire';
import { globalOptions, intOption } from '../options';
import { CliError, createOutput } from '../output';

interface PlatformOptions {
  port: number;
  host: string;
  windowMs: number;
  admin: boolean;
  seed: 'demo' | 'none';
  activityMs?: number;
  timeScale: number;
  envelope: Conventions['envelope'];
  paging: Conventions['paging'];
  pageCap?: number;
  pageCapEchoes: boolean;
  ids: Conventions['ids'];
  times: Conventions['times'];
  rateLimit?: number;
  limitHeader: boolean;
  resetFormat: ResetFormat;
  clockOffsetMs: number;
  specLiteral: boolean;
  fieldCase: Quirks['fieldCase'];
  trimsText: boolean;
  withoutCreatedAt: boolean;
  ignoresPage: boolean;
}

export function registerPlatform(program: Command): void {
  const command = program
    .command('platform')
    .description('Run the reference server of Platform API v1 (the demo workspace) until stopped');
  addServerOptions(command);
  addAnswerOptions(command);
  command
    .addHelpText(
      'after',
      '\nThe global --db FILE names the server’s database (memory when absent). With --json the first\nstdout line is {"base_url":"…","token":"…"} (and "admin_token" with --admin).\nThe API\'s OpenAPI 3.1 document is served at {base_url}/openapi.json, without a token\n(docs/openapi.md: generating clients from it, and the contract checks).',
    )
    .action(runPlatform);
}

/** Where and how the server runs: address, rate window, admin API, seed, its own delays. */
function addServerOptions(command: Command): void {
  command
    .option(
      '--port <n>',
      'port to listen on (0: any free port)',
      intOption('--port', 0, 65535),
      4010,
    )
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option(
      '--window-ms <n>',
      'rate-limit window length',
      intOption('--window-ms', 100, 3_600_000),
      60_000,
    )
    .option('--admin', 'serve the admin API (seed, events, faults) and print its token', false)
    .addOption(
      new Option('--seed <seed>', 'data for a new database')
        .choices(['demo', 'none'])
        .default('none'),
    )
    .option(
      '--activity-ms <n>',
      'raise a demo event this often (default 20000 with --seed demo, else off; 0: off)',
      intOption('--activity-ms', 0, 86_400_000),
    )
    .option(
      '--time-scale <x>',
      'multiplies the server’s own delays (tests use 0.01)',
      parseScale,
      1,
    );
}

/** How the server answers: other platforms' conventions and quirks, rate headers, its clock. */
function addAnswerOptions(command: Command): void {
  command
    .addOption(
      new Option('--envelope <shape>', 'where list items go, as other platforms put them')
        .choices(ENVELOPES)
        .default('meta'),
    )
    .addOption(
      new Option(
        '--paging <style>',
        'how the next page is told (offset: offset/limit, page and per_page ignored; next-relative: next as "orders?page=2")',
      )
        .choices(PAGING_STYLES)
        .default('page'),
    )
    .option(
      '--page-cap <n>',
      'the most items one page holds, whatever per_page asks',
      intOption('--page-cap', 1, 200),
    )
    .option(
      '--page-cap-echoes',
      'with --page-cap: the answer’s per_page, total_pages and next_page follow the per_page asked',
      false,
    )
    .addOption(
      new Option(
        '--ids <style>',
        'ids as bot_1, as 1, as JSON numbers past 2^53, or mixed (bots’ as numbers, the rest as post_1)',
      )
        .choices(ID_STYLES)
        .default('prefixed'),
    )
    .addOption(
      new Option('--times <format>', 'how times are written').choices(TIME_FORMATS).default('iso'),
    )
    .option(
      '--rate-limit <n>',
      'requests per window of the default account, instead of its plan’s',
      intOption('--rate-limit', 1, 1_000_000),
    )
    .option('--no-limit-header', 'leave X-RateLimit-Limit out (the spec names only the other two)')
    .addOption(
      new Option('--reset-format <format>', 'how X-RateLimit-Reset is written')
        .choices(RESET_FORMATS)
        .default('epoch-seconds'),
    )
    .option(
      '--clock-offset-ms <n>',
      'run the server’s clock this far ahead of the machine’s (negative: behind)',
      parseOffset,
      0,
    )
    .option(
      '--spec-literal',
      'keep no client_reference and ignore Idempotency-Key, as the spec names neither',
      false,
    )
    .addOption(
      new Option('--field-case <case>', 'field names as bot_id or botId')
        .choices(FIELD_CASES)
        .default('snake'),
    )
    .option('--trims-text', 'store a text trimmed, with CRLF turned into LF', false)
    .option('--without-created-at', 'leave created_at out of every resource', false)
    .option('--ignores-page', 'answer page 1 whatever page is asked', false);
}

async function runPlatform(options: PlatformOptions, command: Command): Promise<void> {
  const global = await globalOptions(command);
  // The global --plan is the default account's plan here.
  const plan: Plan = global.plan ?? 'free';
  const output = createOutput(global.json);
  // Only an explicit --db: PRESSROOM_DB names Pressroom's own workspace, never the server's.
  const dbFile = command.optsWithGlobals<{ db?: string }>().db;
  const dbFromCli = command.parent?.getOptionValueSource('db') === 'cli';
  const server = await startPlatformServer(
    serverOptionsOf(options, plan, dbFromCli && dbFile ? dbFile : undefined),
  ).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new CliError(`port ${options.port} is in use; pass --port 0 for any free port`);
    }
    throw error;
  });
  output.result(
    {
      base_url: server.baseUrl,
      token: server.token,
      ...(server.adminToken ? { admin_token: server.adminToken } : {}),
    },
    [
      `Platform API v1 reference server (${plan} plan, ${options.rateLimit ?? PLANS[plan]} requests per ${options.windowMs} ms)`,
      `  base URL:    ${server.baseUrl}`,
      `  token:       ${server.token}`,
      `  OpenAPI:     ${server.baseUrl}/openapi.json (no token needed)`,
      ...(server.adminToken
        ? [`  admin token: ${server.adminToken} (admin API at ${server.origin}/admin/v1)`]
        : []),
    ].join('\n'),
  );
  output.progress('Serving until stopped (Ctrl+C).');
  const signal = await waitForStopSignal();
  output.progress(`Stopping (${signal}).`);
  await server.close();
}

function serverOptionsOf(
  options: PlatformOptions,
  plan: Plan,
  dbFile: string | undefined,
): PlatformServerOptions {
  return {
    port: options.port,
    host: options.host,
    ...(dbFile ? { dbFile } : {}),
    plan,
    windowMs: options.windowMs,
    admin: options.admin,
    seed: options.seed,
    demoActivityMs: options.activityMs ?? (options.seed === 'demo' ? 20_000 : 0),
    timeScale: options.timeScale,
    conventions: {
      envelope: options.envelope,
      paging: options.paging,
      pageCap: options.pageCap ?? null,
      pageCapEchoes: options.pageCapEchoes,
      ids: options.ids,
      times: options.times,
    },
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    rateHeaders: { limit: options.limitHeader, reset: options.resetFormat },
    clockOffsetMs: options.clockOffsetMs,
    quirks: {
      specLiteral: options.specLiteral,
      fieldCase: options.fieldCase,
      trimsText: options.trimsText,
      noCreatedAt: options.withoutCreatedAt,
      ignoresPage: options.ignoresPage,
    },
  };
}

function parseScale(value: string): number {
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 0 || scale > 100) {
    throw new CliError(`--time-scale must be a number from 0 to 100, not "${value}"`, 2);
  }
  return scale;
}

function parseOffset(value: string): number {
  const offset = Number(value);
  if (!/^-?\d+$/.test(value) || Math.abs(offset) > 31 * 86_400_000) {
    throw new CliError(
      `--clock-offset-ms must be a whole number of milliseconds within a month, not "${value}"`,
      2,
    );
  }
  return offset;
}
