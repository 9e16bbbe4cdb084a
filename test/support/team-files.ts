// A workspace file joined to a team, its member token sealed beside it; rows written straight into
// a workspace; and every row of a workspace file, to show a refused join changed nothing
// (vitest-free, so bench:team uses it too).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { formatTeamLink } from '../../shared/team';
import type { TeamLink } from '../../shared/team';
import { FileSecretStore } from '../../main/core/account';
import { teamSecretFolder } from '../../main/core/team';
import { WorkspaceStore } from '../../main/store';
import { TeamWorkspace } from '../../main/team-client/workspace';

/** A new workspace file joined to the team of `link`, its member token sealed beside it. */
export function joinedWorkspaceFile(link: TeamLink, token: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'prp-')), 'workspace.sqlite');
  const store = WorkspaceStore.open(file);
  TeamWorkspace.join(store, formatTeamLink(link), token).close();
  store.close();
  new FileSecretStore(teamSecretFolder(file)).write(token);
  return file;
}

/** Every row of every table of a workspace file, read beside whoever has it open. */
export function everyRow(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      )
      .all();
    return JSON.stringify(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]),
    );
  } finally {
    db.close();
  }
}

/** Posts and products written straight into a workspace's rows, in one transaction. */
export function fillRows(store: WorkspaceStore, posts: number, products: number): void {
  store.transaction(() => {
    const post = store.db.prepare(
      `INSERT INTO posts (bot_id, text, media_urls, scheduled_at, zone, status, created_at, updated_at)
       VALUES ('bot_1', ?, '[]', NULL, 'UTC', 'draft', ?, ?)`,
    );
    const product = store.db.prepare(
      `INSERT INTO products (sku, name, price_minor, currency, status, created_at, updated_at)
       VALUES (?, ?, 1250, 'EUR', 'draft', ?, ?)`,
    );
    const now = Date.now();
    for (let i = 0; i < posts; i++) post.run(`Post ${i}: something worth reading today`, now, now);
    for (let i = 0; i < products; i++) product.run(`SKU-${i}`, `Product ${i}`, now, now);
  });
}
