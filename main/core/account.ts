// The platform account a workspace talks to (Node, main process): its base URL and plan in a small
// JSON file, read through a schema, and its token kept by a SecretStore, never in SQLite or logs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PLAN_NAMES } from '../../shared/contract';
import { ensurePrivateFolder } from '../sqlite/private-files';

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
 * The token sealed with AES-256-GCM under a key file only this user can read. Outside Electron
 * there is no OS keychain to ask; this keeps the token out of the database, backups and logs.
 */
export class FileSecretStore implements SecretStore {
  private readonly keyFile: string;
  private readonly secretFile: string;

  constructor(folder: string) {
    ensurePrivateFolder(folder);
    this.keyFile = join(folder, 'secret.key');
    this.secretFile = join(folder, 'token.sealed');
  }

  private key(): Buffer {
    if (!existsSync(this.keyFile))
      writeFileSync(this.keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    return Buffer.from(readFileSync(this.keyFile, 'utf8'), 'base64');
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
