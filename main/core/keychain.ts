// The operating system's keychain, from Node (main process, outside Electron): where the key that
// seals the API token lives, so a copy of Pressroom's folder (a backup, a synced folder) holds no
// key to open token.sealed with. macOS: the login Keychain (`security`); Linux: the Secret Service
// (GNOME Keyring, KWallet) through libsecret's `secret-tool`; Windows: DPAPI, which seals the key
// to the user's login. The key crosses to these tools on stdin, never on a command line. Where
// none works, FileSecretStore keeps the key in a file only this user may read (docs/security.md).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Keeps one workspace folder's sealing key (base64 text). */
export interface Keychain {
  /** Where the key is kept, for the log and the docs. */
  readonly name: string;
  /** The key, or null when none is kept (or the keychain would not answer). */
  read(): string | null;
  /** Keeps the key; false when the keychain refused it. */
  write(key: string): boolean;
}

const SERVICE = 'Pressroom';
const TIMEOUT_MS = 10_000;

function run(command: string, args: string[], input = ''): string | null {
  const result = spawnSync(command, args, { input, encoding: 'utf8', timeout: TIMEOUT_MS });
  return result.status === 0 ? result.stdout : null;
}

/** One item per workspace folder: two folders (PRESSROOM_HOME) never share a key. */
function itemName(folder: string): string {
  return `token-key-${createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16)}`;
}

function macKeychain(folder: string): Keychain {
  const account = itemName(folder);
  return {
    name: 'the macOS Keychain',
    read: () =>
      run('security', ['find-generic-password', '-s', SERVICE, '-a', account, '-w'])?.trim() ||
      null,
    // `security -i` reads its command from stdin, so the key is in no process's arguments.
    write: (key) =>
      run('security', ['-i'], `add-generic-password -U -s ${SERVICE} -a ${account} -w ${key}\n`) !==
      null,
  };
}

function secretService(folder: string): Keychain {
  const attributes = ['service', SERVICE, 'account', itemName(folder)];
  return {
    name: 'the Secret Service (GNOME Keyring or KWallet)',
    read: () => run('secret-tool', ['lookup', ...attributes])?.trim() || null,
    write: (key) =>
      run('secret-tool', ['store', `--label=${SERVICE} token key`, ...attributes], key) !== null,
  };
}

/** DPAPI: the key file is sealed to this Windows user's login; another user or computer cannot open it. */
function dpapi(folder: string): Keychain {
  const file = join(folder, 'secret.key.dpapi');
  const protect = (method: 'Protect' | 'Unprotect') =>
    `Add-Type -AssemblyName System.Security; [Convert]::ToBase64String([Security.Cryptography.ProtectedData]::${method}([Convert]::FromBase64String([Console]::In.ReadLine()), $null, 'CurrentUser'))`;
  const powershell = (method: 'Protect' | 'Unprotect', input: string) =>
    run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', protect(method)], input);
  return {
    name: 'Windows DPAPI',
    read: () => {
      if (!existsSync(file)) return null;
      const key = powershell('Unprotect', readFileSync(file, 'utf8').trim())?.trim();
      return key ? Buffer.from(key, 'base64').toString('utf8') : null;
    },
    write: (key) => {
      const sealed = powershell('Protect', Buffer.from(key).toString('base64'))?.trim();
      if (!sealed) return false;
      writeFileSync(file, sealed, { mode: 0o600 });
      return true;
    },
  };
}

/**
 * This system's keychain for `folder`. Whether it works (the tool is there, a keyring runs and is
 * unlocked) shows when FileSecretStore keeps a key in it and reads it back.
 */
export function systemKeychain(folder: string, platform = process.platform): Keychain {
  if (platform === 'darwin') return macKeychain(folder);
  return platform === 'win32' ? dpapi(folder) : secretService(folder);
}
