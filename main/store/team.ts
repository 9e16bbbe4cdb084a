// A team workspace's rows (Node, main process): the link to the team, the Yjs updates kept in
// this workspace's own file, and the posts and products as the team document names them (by
// UUID). The integer ids stay local; nothing here knows Yjs, it stores what the mirror hands it.
import { randomUUID } from 'node:crypto';
import type { LocalPost } from '../../shared/domain';
import type { SharedProductFields } from '../../shared/team-doc';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export interface StoredTeamLink {
  url: string;
  team: string;
  device: string;
  joinedAt: number;
  /** The last local change (updated_at, this computer's clock) written to the document; rows at
   * that very millisecond are written again (a no-op when unchanged), so none is missed. */
  pushedUpto: number;
}

/** A post as the team shares it; local outcomes (sending, published, failed) stay local. */
export type TeamPostRow = Pick<
  LocalPost,
  'botId' | 'text' | 'mediaUrls' | 'scheduledAt' | 'zone' | 'status' | 'updatedAt'
> & { uuid: string };

export type TeamProductRow = Omit<SharedProductFields, 'deletedAt'> & {
  uuid: string;
  updatedAt: number;
};

/** Local statuses a shared change may overwrite; the others are this desktop's own outcome. */
const SHARED_POST_STATUSES = "('draft', 'scheduled')";

export class TeamStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  /**
   * Moves whenever the file's rows may have changed: a write on this connection (total_changes)
   * or a commit by another one, such as the CLI in another process (data_version).
   */
  writeMark(): string {
    const { changes } = statement(this.db, 'SELECT total_changes() AS changes').get() as {
      changes: number;
    };
    return `${changes}:${String(this.db.pragma('data_version', { simple: true }))}`;
  }

  link(): StoredTeamLink | undefined {
    const row = statement(this.db, 'SELECT * FROM team_link WHERE id = 1').get() as
      | { url: string; team: string; device: string; joined_at: number; pushed_upto: number }
      | undefined;
    return (
      row && {
        url: row.url,
        team: row.team,
        device: row.device,
        joinedAt: row.joined_at,
        pushedUpto: row.pushed_upto,
      }
    );
  }

  setLink(link: { url: string; team: string; device: string }): void {
    statement(
      this.db,
      'INSERT OR REPLACE INTO team_link (id, url, team, device, joined_at) VALUES (1, ?, ?, ?, ?)',
    ).run(link.url, link.team, link.device, this.now());
  }

  markPushed(upto: number): void {
    statement(this.db, 'UPDATE team_link SET pushed_upto = max(pushed_upto, ?) WHERE id = 1').run(
      upto,
    );
  }

  appendUpdate(update: Uint8Array): void {
    statement(this.db, 'INSERT INTO team_updates (data) VALUES (?)').run(update);
  }

  updates(): Buffer[] {
    const rows = statement(this.db, 'SELECT data FROM team_updates ORDER BY seq').all() as {
      data: Buffer;
    }[];
    return rows.map((row) => row.data);
  }

  /** Replaces every stored update by one holding the same state. */
  compact(state: Uint8Array): void {
    this.db
      .transaction(() => {
        statement(this.db, 'DELETE FROM team_updates').run();
        statement(this.db, 'INSERT INTO team_updates (data) VALUES (?)').run(state);
      })
      .immediate();
  }

  /** Gives every post and product without one a UUID: they are about to be shared. */
  assignUuids(): void {
    for (const table of ['posts', 'products'] as const) {
      const ids = statement(this.db, `SELECT id FROM ${table} WHERE uuid IS NULL`).all() as {
        id: number;
      }[];
      const set = statement(this.db, `UPDATE ${table} SET uuid = ? WHERE id = ?`);
      for (const { id } of ids) set.run(randomUUID(), id);
    }
  }

  postsChangedSince(since: number): TeamPostRow[] {
    const rows = statement(
      this.db,
      `SELECT uuid, bot_id AS botId, text, media_urls AS mediaUrls, scheduled_at AS scheduledAt, zone,
         status, updated_at AS updatedAt
       FROM posts WHERE updated_at >= ? AND uuid IS NOT NULL ORDER BY updated_at`,
    ).all(since) as (Omit<TeamPostRow, 'mediaUrls'> & { mediaUrls: string })[];
    return rows.map((row) => ({ ...row, mediaUrls: JSON.parse(row.mediaUrls) as string[] }));
  }

  productsChangedSince(since: number): TeamProductRow[] {
    return statement(
      this.db,
      `SELECT uuid, sku, name, description, price_minor AS priceMinor, currency, stock,
         image_url AS imageUrl, updated_at AS updatedAt
       FROM products WHERE updated_at >= ? AND uuid IS NOT NULL ORDER BY updated_at`,
    ).all(since) as TeamProductRow[];
  }

  uuidOfPost(id: number): string | undefined {
    const row = statement(this.db, 'SELECT uuid FROM posts WHERE id = ?').get(id) as
      { uuid: string | null } | undefined;
    return row?.uuid ?? undefined;
  }

  /** The local id of the shared post `uuid`, when this desktop has it. */
  postIdOf(uuid: string): number | undefined {
    const row = statement(this.db, 'SELECT id FROM posts WHERE uuid = ?').get(uuid) as
      { id: number } | undefined;
    return row?.id;
  }

  /** Which of these UUIDs have no local row any more: deleted here, to be marked in the document. */
  missing(table: 'posts' | 'products', uuids: readonly string[]): string[] {
    const present = statement(
      this.db,
      `SELECT uuid FROM ${table} WHERE uuid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(uuids)) as { uuid: string }[];
    const here = new Set(present.map((row) => row.uuid));
    return uuids.filter((uuid) => !here.has(uuid));
  }

  /** Writes a post another desktop changed; a local outcome (sending, published…) keeps its status. */
  upsertPost(post: Omit<TeamPostRow, 'updatedAt'>): void {
    const now = this.now();
    const { botId, text, scheduledAt, zone, status } = post;
    const fields = [botId, text, JSON.stringify(post.mediaUrls), scheduledAt, zone, status];
    const changed = statement(
      this.db,
      `UPDATE posts SET bot_id = ?, text = ?, media_urls = ?, scheduled_at = ?, zone = ?,
         status = CASE WHEN status IN ${SHARED_POST_STATUSES} THEN ? ELSE status END, updated_at = ?
       WHERE uuid = ?`,
    ).run(...fields, now, post.uuid);
    if (changed.changes > 0) return;
    statement(
      this.db,
      `INSERT INTO posts (bot_id, text, media_urls, scheduled_at, zone, status, uuid, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...fields, post.uuid, now, now);
  }

  upsertProduct(product: Omit<TeamProductRow, 'updatedAt'>): void {
    const now = this.now();
    const values = [
      product.sku,
      product.name,
      product.description,
      product.priceMinor,
      product.currency,
      product.stock,
      product.imageUrl,
      now,
    ];
    const changed = statement(
      this.db,
      `UPDATE products SET sku = ?, name = ?, description = ?, price_minor = ?, currency = ?, stock = ?,
         image_url = ?, updated_at = ? WHERE uuid = ?`,
    ).run(...values, product.uuid);
    if (changed.changes > 0) return;
    // A product this desktop already has under the same SKU becomes the shared one.
    const adopted = statement(
      this.db,
      `UPDATE products SET uuid = ?, name = ?, description = ?, price_minor = ?, currency = ?, stock = ?,
         image_url = ?, updated_at = ? WHERE sku = ? AND uuid IS NULL`,
    ).run(product.uuid, ...values.slice(1), product.sku);
    if (adopted.changes > 0) return;
    statement(
      this.db,
      `INSERT INTO products (sku, name, description, price_minor, currency, stock, image_url, status,
         created_at, updated_at, uuid) VALUES (?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)`,
    ).run(...values, now, product.uuid);
  }

  /** A record the team deleted goes here too, unless it already went out from this desktop. */
  removeDeleted(table: 'posts' | 'products', uuid: string): void {
    const keep = table === 'posts' ? SHARED_POST_STATUSES : "('draft', 'failed')";
    statement(this.db, `DELETE FROM ${table} WHERE uuid = ? AND status IN ${keep}`).run(uuid);
  }
}
