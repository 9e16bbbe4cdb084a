// Runs the CLI as a user would (as `npm run cli` does), in a child process.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export const CLI_ENTRY = ['main/app/launch.mjs', 'cli'];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end; `stdin`, when given, is written to its standard input. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: string,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ENTRY, ...args], {
      env: { ...process.env, ...env },
    });
    if (stdin !== undefined) child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts a long-running CLI command and resolves with its first stdout line; `root`, the tree
 * whose CLI runs (a bench's baseline), is this one unless given.
 */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  root?: string,
): Promise<{ child: ChildProcessWithoutNullStreams; firstLine: string }> {
  const child = spawn(process.execPath, [...CLI_ENTRY, ...args], {
    env: { ...process.env, ...env },
    ...(root ? { cwd: root } : {}),
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (firstLine) => resolve({ child, firstLine }));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

export interface PlatformCli {
  child: ChildProcessWithoutNullStreams;
  base_url: string;
  token: string;
  admin_token?: string;
}

/** Runs `platform --json --port 0` with more arguments, and reads its first line. */
export async function startPlatformCli(args: string[]): Promise<PlatformCli> {
  const { child, firstLine } = await startCli(['platform', '--json', '--port', '0', ...args]);
  return { child, ...(JSON.parse(firstLine) as Omit<PlatformCli, 'child'>) };
}

/** Calls the admin API of a reference server started with `startPlatformCli(['--admin', …])`. */
export function adminOf(server: Pick<PlatformCli, 'base_url' | 'admin_token'>) {
  const origin = new URL(server.base_url).origin;
  return (method: string, path: string, body?: unknown) =>
    fetch(`${origin}/admin/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${server.admin_token ?? ''}`,
        'Content-Type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((response) => response.json() as Promise<Record<string, unknown>>);
}

/**
 * A new offline workspace for CLI runs: its folder, and the environment that points the CLI at
 * it with no account, in Berlin's zone (a workspace's zone defaults to the computer's).
 */
export function offlineWorkspace(name: string): { folder: string; env: NodeJS.ProcessEnv } {
  const folder = mkdtempSync(join(tmpdir(), `pressroom-cli-${name}-`));
  return {
    folder,
    env: {
      PRESSROOM_DB: join(folder, 'workspace.sqlite'),
      PRESSROOM_API_BASE: '',
      PRESSROOM_API_TOKEN: '',
      TZ: 'Europe/Berlin',
    },
  };
}

export interface TeamCli {
  child: ChildProcessWithoutNullStreams;
  /** The server's data folder. */
  data: string;
  link: string;
  /** The owner's member token. */
  token: string;
}

/** `team serve` on a free port with its data in `data`, and `team create` there ("Shop"). */
export async function startTeamCli(data: string): Promise<TeamCli> {
  const { child, firstLine } = await startCli([
    '--json',
    'team',
    'serve',
    '--data',
    data,
    '--port',
    '0',
  ]);
  const { url } = JSON.parse(firstLine) as { url: string };
  const created = await runCli([
    '--json',
    'team',
    'create',
    '--data',
    data,
    '--url',
    url,
    '--name',
    'Shop',
  ]);
  const { link, token } = JSON.parse(created.stdout) as { link: string; token: string };
  return { child, data, link, token };
}
