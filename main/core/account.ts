// The platform account a workspace talks to (Node, main process): its base URL and plan in a small
// JSON file, read through a schema, and its token kept by a SecretStore, never in SQLite or logs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PLAN_NAMES } from '../../shared/contract';
import { ensurePrivateFolder } from '../sqlite/private-files';
import type { Keychain } from './keychain';

const accountSchema = z.object({
  apiBase: z.url({ protocol: /^https?$/ }),
  plan: z.enum(PLAN_NAMES),
});
export type StoredAccount = z.infer<typeof accountSchema>;

/** Keeps one secret (the API token). Electron's uses safeStorage; this one a private key file. */
export interface SecretStore {
  read(): string | null;
  write(secret: string | null): void;
}

/** Reads a JSON file through a schema; a missing or damaged file is "nothing stored". */
function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> | null {
  if (!existsSync(file)) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export class AccountFile {
  private readonly file: string;

  constructor(folder: string) {
    ensurePrivateFolder(folder);
    this.file = join(folder, 'account.json');
  }

  read(): StoredAccount | null {
    return readJson(this.file, accountSchema);
  }

  write(account: StoredAccount | null): void {
    if (account) writeFileSync(this.file, JSON.stringify(account, null, 2), { mode: 0o600 });
    else rmSync(this.file, { force: true });
  }
}

const sealedSchema = z.object({ iv: z.string(), tag: z.string(), data: z.string() });

/**
 * The token sealed with AES-256-GCM (token.sealed) under a key kept by the OS keychain when one
 * works (keychain.ts), so a copy of the folder cannot open it. Without one, the key is a file
 * beside it that only this user may read: that stops other users of the computer, not a backup
 * of the folder or anyone who can read this user's files (docs/security.md says so).
 */
export class FileSecretStore implements SecretStore {
  private readonly keyFile: string;
  private readonly secretFile: string;
  private cachedKey: Buffer | null = null;

  constructor(
    folder: string,
    private readonly keychain: Keychain | null = null,
  ) {
    ensurePrivateFolder(folder);
    this.keyFile = join(folder, 'secret.key');
    this.secretFile = join(folder, 'token.sealed');
  }

  private key(): Buffer {
    this.cachedKey ??= Buffer.from(this.keyText(), 'base64');
    return this.cachedKey;
  }

  /** The keychain's key; else a key file's, moved into the keychain when it takes it. */
  private keyText(): string {
    const kept = this.keychain?.read();
    if (kept) return kept;
    const file = existsSync(this.keyFile) ? readFileSync(this.keyFile, 'utf8').trim() : null;
    const key = file ?? randomBytes(32).toString('base64');
    if (this.keychain?.write(key) && this.keychain.read() === key) {
      rmSync(this.keyFile, { force: true });
      return key;
    }
    if (file === null) writeFileSync(this.keyFile, key, { mode: 0o600 });
    return key;
  }

  read(): string | null {
    const sealed = readJson(this.secretFile, sealedSchema);
    if (!sealed) return null;
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.key(),
        Buffer.from(sealed.iv, 'base64'),
      );
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([
        decipher.update(Buffer.from(sealed.data, 'base64')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }

  write(secret: string | null): void {
    if (secret === null) return rmSync(this.secretFile, { force: true });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const sealed = {
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    writeFileSync(this.secretFile, JSON.stringify(sealed), { mode: 0o600 });
  }
}

/** "••••••••3f9a": enough to tell tokens apart, never enough to use one. */
export function tokenHint(token: string): string {
  return `••••••••${token.slice(-4)}`;
}
