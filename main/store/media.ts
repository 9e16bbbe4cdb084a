// Uploaded pictures (Node, main process): stored once per content, named by its hash, with the
// small thumbnail the page made for lists and the calendar.
import type { MediaHost } from '../../shared/contract';
import { mediaHost } from '../../shared/contract';
import type { MediaType } from '../../shared/media';
import type { WorkspaceDb } from './db';
import { SettingsStore } from './settings';
import { statement } from './statements';

const MEDIA_HOST_KEY = 'media_host';

export interface StoredMedia {
  /** `<sha256>.<ext>`: the file's name wherever it is put. */
  name: string;
  originalName: string;
  type: MediaType;
  size: number;
  createdAt: number;
}

export interface NewMedia {
  name: string;
  originalName: string;
  type: MediaType;
  bytes: Uint8Array;
  thumbnail: { type: MediaType; bytes: Uint8Array } | null;
}

interface MediaRow {
  name: string;
  original_name: string;
  type: MediaType;
  size: number;
  created_at: number;
}

const toMedia = (row: MediaRow): StoredMedia => ({
  name: row.name,
  originalName: row.original_name,
  type: row.type,
  size: row.size,
  createdAt: row.created_at,
});

export class MediaStore {
  private readonly settings: SettingsStore;

  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {
    this.settings = new SettingsStore(db);
  }

  /** Where uploaded pictures are published from; null when nowhere yet. */
  host(): MediaHost | null {
    return this.settings.get(MEDIA_HOST_KEY, mediaHost.nullable(), null);
  }

  setHost(host: MediaHost | null): void {
    this.settings.set(MEDIA_HOST_KEY, host);
  }

  /** Keeps a file; the same content uploaded again is the same file (a better thumbnail wins). */
  put(media: NewMedia): void {
    statement(
      this.db,
      `INSERT INTO media (name, original_name, type, size, bytes, thumbnail, thumbnail_type, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET
           thumbnail = COALESCE(excluded.thumbnail, thumbnail),
           thumbnail_type = COALESCE(excluded.thumbnail_type, thumbnail_type)`,
    ).run(
      media.name,
      media.originalName,
      media.type,
      media.bytes.byteLength,
      Buffer.from(media.bytes),
      media.thumbnail ? Buffer.from(media.thumbnail.bytes) : null,
      media.thumbnail?.type ?? null,
      this.now(),
    );
  }

  get(name: string): StoredMedia | undefined {
    const row = statement(
      this.db,
      'SELECT name, original_name, type, size, created_at FROM media WHERE name = ?',
    ).get(name) as MediaRow | undefined;
    return row && toMedia(row);
  }

  bytes(name: string): Buffer | undefined {
    const row = statement(this.db, 'SELECT bytes FROM media WHERE name = ?').get(name) as
      { bytes: Buffer } | undefined;
    return row?.bytes;
  }

  /** The thumbnails of `names` that have one, by name (one query for a whole calendar page). */
  thumbnails(names: readonly string[]): Map<string, { type: MediaType; bytes: Buffer }> {
    const found = new Map<string, { type: MediaType; bytes: Buffer }>();
    const rows = statement(
      this.db,
      `SELECT name, thumbnail, thumbnail_type FROM media
         WHERE thumbnail IS NOT NULL AND name IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify([...new Set(names)])) as {
      name: string;
      thumbnail: Buffer;
      thumbnail_type: MediaType;
    }[];
    for (const row of rows) found.set(row.name, { type: row.thumbnail_type, bytes: row.thumbnail });
    return found;
  }
}
