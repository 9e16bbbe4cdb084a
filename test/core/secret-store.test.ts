// The token outside Electron: sealed under a key the OS keychain keeps when one works, so a copy
// of Pressroom's folder (a backup) holds nothing that opens it; a private key file only without.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import type { Keychain } from '../../main/core/keychain';
import { systemKeychain } from '../../main/core/keychain';

const TOKEN = 'pr_live_token_1234567890';

/** A keychain in memory; `working: false` is one that refuses to keep anything. */
function fakeKeychain(working = true): Keychain & { items: string[] } {
  const items: string[] = [];
  return {
    name: 'a test keychain',
    items,
    read: () => items.at(-1) ?? null,
    write: (key) => working && items.push(key) > 0,
  };
}

const folder = () => mkdtempSync(join(tmpdir(), 'pressroom-secrets-'));

describe('the token outside Electron', () => {
  it('is sealed under a key the keychain keeps: a backup of the folder cannot open it', () => {
    const home = folder();
    const keychain = fakeKeychain();
    new FileSecretStore(home, keychain).write(TOKEN);
    expect(readdirSync(home).sort()).toEqual(['token.sealed']);
    expect(keychain.items).toHaveLength(1);
    expect(new FileSecretStore(home, keychain).read()).toBe(TOKEN);

    const backup = folder();
    cpSync(home, backup, { recursive: true });
    expect(new FileSecretStore(backup, fakeKeychain()).read()).toBeNull();
    expect(new FileSecretStore(backup).read()).toBeNull();
  });

  it('moves a key file from before into the keychain', () => {
    const home = folder();
    new FileSecretStore(home).write(TOKEN);
    expect(existsSync(join(home, 'secret.key'))).toBe(true);
    const keychain = fakeKeychain();
    expect(new FileSecretStore(home, keychain).read()).toBe(TOKEN);
    expect(existsSync(join(home, 'secret.key'))).toBe(false);
    expect(new FileSecretStore(home, keychain).read()).toBe(TOKEN);
  });

  it('keeps the key in a private file when the keychain will not keep it', () => {
    const home = folder();
    new FileSecretStore(home, fakeKeychain(false)).write(TOKEN);
    expect(readdirSync(home).sort()).toEqual(['secret.key', 'token.sealed']);
    expect(new FileSecretStore(home, fakeKeychain(false)).read()).toBe(TOKEN);
  });

  // The stand-ins are shell scripts; Windows's DPAPI goes through PowerShell the same way.
  it.runIf(process.platform !== 'win32')(
    'hands the key to the keychain tools on stdin, never on a command line',
    () => {
      const home = folder();
      const bin = folder();
      const log = join(bin, 'calls.txt');
      // Stand-ins for secret-tool and security that log their arguments and their stdin.
      for (const name of ['secret-tool', 'security'])
        writeFileSync(
          join(bin, name),
          `#!/bin/sh\necho "args: $*" >> '${log}'\necho "stdin: $(cat)" >> '${log}'\nexit 1\n`,
          { mode: 0o755 },
        );
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path ?? ''}`;
      try {
        for (const platform of ['linux', 'darwin'] as const)
          new FileSecretStore(home, systemKeychain(home, platform)).write(TOKEN);
      } finally {
        process.env.PATH = path;
      }
      const calls = existsSync(log) ? readFileSync(log, 'utf8') : '';
      const key = readFileSync(join(home, 'secret.key'), 'utf8').trim();
      expect(calls).toContain(`stdin: ${key}`);
      expect(calls).toMatch(/stdin: add-generic-password -U -s Pressroom -a token-key-\w+ -w /);
      for (const line of calls.split('\n').filter((each) => each.startsWith('args:')))
        expect(line).not.toContain(key);
    },
  );
});
