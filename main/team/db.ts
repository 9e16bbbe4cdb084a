// The team server's own SQLite file under its data folder (Node, team server): members, the Yjs
// documents (updates appended as they arrive, compacted now and then), the publish leases and the
// audit log. Everything a hook decides lives here, never in the process, so a second server
// process (the Redis scale-out in docs/team.md) sees the same state.
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openMigratedDb } from '../sqlite/open';

export type TeamDb = Database.Database;

const TEAM_MIGRATIONS: readonly string[] = [
  `
    CREATE TABLE teams (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE members (
      id TEXT PRIMARY KEY,
      team_id TEXT NOT NULL REFERENCES teams(id),
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE TABLE doc_snapshots (
      name TEXT PRIMARY KEY,
      state BLOB NOT NULL,
      upto INTEGER NOT NULL
    );
    CREATE TABLE doc_updates (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      data BLOB NOT NULL
    );
    CREATE INDEX doc_updates_name ON doc_updates(name, seq);
    CREATE TABLE leases (
      team_id TEXT NOT NULL REFERENCES teams(id),
      post_uuid TEXT NOT NULL,
      epoch INTEGER NOT NULL,
      holder_member TEXT,
      holder_device TEXT,
      expires_at INTEGER NOT NULL,
      remote_id TEXT,
      published_at INTEGER,
      published_by TEXT,
      PRIMARY KEY (team_id, post_uuid)
    );
    CREATE TABLE approvals (
      team_id TEXT NOT NULL REFERENCES teams(id),
      post_uuid TEXT NOT NULL,
      state TEXT NOT NULL,
      changed_by TEXT NOT NULL,
      changed_at INTEGER NOT NULL,
      PRIMARY KEY (team_id, post_uuid)
    );
    CREATE TABLE audit (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      team_id TEXT NOT NULL REFERENCES teams(id),
      at INTEGER NOT NULL,
      member TEXT NOT NULL,
      action TEXT NOT NULL,
      post_uuid TEXT,
      detail TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX audit_team ON audit(team_id, seq);
  `,
  // Approvals: the approver role (a CHECK cannot be altered, so the table is rebuilt), who
  // submitted each post and what it said when approved, the team's setting, and comments.
  `
    CREATE TABLE members_with_approver (
      id TEXT PRIMARY KEY,
      team_id TEXT NOT NULL REFERENCES teams(id),
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('owner', 'approver', 'editor', 'viewer')),
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    INSERT INTO members_with_approver SELECT * FROM members;
    DROP TABLE members;
    ALTER TABLE members_with_approver RENAME TO members;
    ALTER TABLE approvals ADD COLUMN author TEXT;
    ALTER TABLE approvals ADD COLUMN approved_fingerprint TEXT;
    CREATE TABLE approval_settings (
      team_id TEXT PRIMARY KEY REFERENCES teams(id),
      required INTEGER NOT NULL,
      bots TEXT
    );
    CREATE TABLE comments (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      team_id TEXT NOT NULL REFERENCES teams(id),
      post_uuid TEXT NOT NULL,
      member TEXT NOT NULL,
      at INTEGER NOT NULL,
      text TEXT NOT NULL
    );
    CREATE INDEX comments_post ON comments(team_id, post_uuid, seq);
  `,
  // A post's history, and "did this member just edit this post" (edits.ts), by index.
  `CREATE INDEX audit_post ON audit(team_id, post_uuid, member, action, seq);`,
  // When each post was first claimed (lease.ts): the earliest an earlier holder can have sent. A
  // lease from before this is taken as claimed at the start of time: its lookup reads it all.
  `ALTER TABLE leases ADD COLUMN first_claimed_at INTEGER NOT NULL DEFAULT 0;`,
  // Server keys (server-keys.ts): who may create a team from the app, kept as their SHA-256.
  `CREATE TABLE server_keys (hash TEXT PRIMARY KEY, created_at INTEGER NOT NULL);`,
];

export function openTeamDb(dataDir: string): TeamDb {
  return openMigratedDb(join(dataDir, 'team.sqlite'), {
    applicationId: 0x50525354, // "PRST"
    kindName: "a Pressroom team server's database",
    migrations: TEAM_MIGRATIONS,
    // An acknowledged update is on disk: a server killed -9 loses nothing it answered.
    synchronous: 'FULL',
  });
}

/** Takes the write lock first, so two server processes' conditional writes queue, never race. */
export function inTransaction<T>(db: TeamDb, work: () => T): T {
  return db.transaction(work).immediate();
}
