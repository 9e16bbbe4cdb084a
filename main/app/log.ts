// The desktop app's log (Electron main process): one text file in the logs folder, rotated by
// size with the last few kept, and every secret the app knows (the API token) replaced before a
// line is written, as are Bearer headers and token= parameters whoever logs them.
import { appendFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatWithOptions } from 'node:util';
import { createPrivateFolder } from '../sqlite/private-files';

export type LogLevel = 'info' | 'warn' | 'error';

export interface Log {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export interface LogOptions {
  file: string;
  /** Rotates when the file would grow past this (default 1 MiB). */
  maxBytes?: number;
  /** Rotated files kept besides the current one: main.1.log … main.N.log (default 3). */
  keep?: number;
  /** The secrets to hide, asked at every line: the token can change while the app runs. */
  secrets?: () => readonly (string | null)[];
  now?: () => number;
  /** Also write each line here (the terminal when run with `npm start`). */
  echo?: (line: string) => void;
}

const REDACTED = '[redacted]';
// Shapes of credentials anyone might log: an Authorization header, a URL or form parameter.
const CREDENTIAL_SHAPES: [RegExp, string][] = [
  [/(Bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`],
  [/((?:token|api[_-]?key)["']?\s*[=:]\s*["']?)[^\s"'&,}]+/gi, `$1${REDACTED}`],
];
// Shorter "secrets" would redact ordinary words; no API token is this short.
const MIN_SECRET_LENGTH = 8;

export function redact(text: string, secrets: readonly (string | null)[]): string {
  let result = text;
  for (const secret of secrets)
    if (secret && secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join(REDACTED);
  for (const [shape, replacement] of CREDENTIAL_SHAPES) result = result.replace(shape, replacement);
  return result;
}

function rotatedName(file: string, index: number): string {
  return file.replace(/(\.log)?$/, `.${index}$1`);
}

export function createLog(options: LogOptions): Log {
  const { file, maxBytes = 1024 * 1024, keep = 3, secrets = () => [], now = Date.now } = options;
  createPrivateFolder(dirname(file));

  const rotate = () => {
    rmSync(rotatedName(file, keep), { force: true });
    for (let index = keep - 1; index >= 1; index--)
      if (existsSync(rotatedName(file, index)))
        renameSync(rotatedName(file, index), rotatedName(file, index + 1));
    renameSync(file, rotatedName(file, 1));
  };

  const write = (level: LogLevel, message: string, details: unknown[]) => {
    const text = formatWithOptions({ breakLength: Infinity, depth: 4 }, message, ...details);
    const line = `${new Date(now()).toISOString()} [${level}] ${redact(text, secrets())}\n`;
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size > 0 && size + Buffer.byteLength(line) > maxBytes) rotate();
    appendFileSync(file, line, { mode: 0o600 });
    options.echo?.(line.trimEnd());
  };

  return {
    info: (message, ...details) => write('info', message, details),
    warn: (message, ...details) => write('warn', message, details),
    error: (message, ...details) => write('error', message, details),
  };
}
