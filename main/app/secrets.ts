// The API token sealed by the operating system's keychain through Electron's safeStorage
// (Electron main process): DPAPI on Windows, Keychain on macOS, libsecret/kwallet on Linux. Only
// the encrypted bytes reach the disk; the database, its backups and the log never see the token.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretStore } from '../core/account';
import { InvalidInput } from '../core/errors';
import type { ElectronApi } from './electron-api';
import { ensurePrivateFolder } from '../sqlite/private-files';

export class SafeStorageSecretStore implements SecretStore {
  private readonly file: string;
  /** The token last read or written, for the log to redact without asking the keychain again. */
  known: string | null = null;

  constructor(
    private readonly safeStorage: ElectronApi['safeStorage'],
    folder: string,
  ) {
    ensurePrivateFolder(folder);
    this.file = join(folder, 'token.safe');
  }

  /** Linux without a keyring falls back to a key built into Chromium: that is not a secret. */
  private usable(): boolean {
    return (
      this.safeStorage.isEncryptionAvailable() &&
      this.safeStorage.getSelectedStorageBackend?.() !== 'basic_text'
    );
  }

  read(): string | null {
    if (!existsSync(this.file) || !this.usable()) return null;
    try {
      this.known = this.safeStorage.decryptString(readFileSync(this.file));
      return this.known;
    } catch {
      // Sealed under another user or machine: as good as no token; the user connects again.
      return null;
    }
  }

  write(secret: string | null): void {
    if (secret === null) {
      this.known = null;
      return rmSync(this.file, { force: true });
    }
    if (!this.usable())
      throw new InvalidInput([
        {
          field: 'token',
          message:
            'cannot be stored safely: this system has no keychain available to Pressroom (on Linux, install and unlock gnome-keyring or KWallet)',
        },
      ]);
    writeFileSync(this.file, this.safeStorage.encryptString(secret), { mode: 0o600 });
    this.known = secret;
  }
}
