// Posts in the workspace database (Node, main process).
import { COUNTED_STATUSES } from '../../shared/duplicates';
import { NOT_GONE_OUT, POST_STATUSES } from '../../shared/domain';
import type { LocalPost, Origin, PostStatus } from '../../shared/domain';
import { keptCounts } from './count-by';
import type { WorkspaceDb } from './db';
import { inSet, statement } from './statements';

interface PostRow {
  id: number;
  remote_id: string | null;
  bot_id: string | null;
  text: string;
  media_urls: string;
  scheduled_at: number | null;
  zone: string | null;
  status: PostStatus;
  origin: Origin;
  published_at: number | null;
  error: string | null;
  batch_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface PostDraft {
  botId: string | null;
  text: string;
  mediaUrls: string[];
  scheduledAt: number | null;
  zone: string | null;
  status?: PostStatus;
  batchId?: string | null;
}

export interface PostFilter {
  from?: number;
  to?: number;
  status?: PostStatus;
  /** null: the posts without a bot. */
  botId?: string | null;
  unscheduled?: boolean;
  /** Made here, or on the platform. */
  origin?: Origin;
}

const BY_TIME = 'ORDER BY scheduled_at IS NULL, scheduled_at, id';

function where(filter: PostFilter): { clause: string; params: unknown[] } {
  const conditions: [sql: string, value: unknown][] = [];
  if (filter.from !== undefined) conditions.push(['scheduled_at >= ?', filter.from]);
  if (filter.to !== undefined) conditions.push(['scheduled_at <= ?', filter.to]);
  if (filter.status) conditions.push(['status = ?', filter.status]);
  if (filter.botId !== undefined) conditions.push(['bot_id IS ?', filter.botId]);
  if (filter.unscheduled) conditions.push(['scheduled_at IS ?', null]);
  if (filter.origin) conditions.push(['origin = ?', filter.origin]);
  return {
    clause: conditions.length > 0 ? `WHERE ${conditions.map(([sql]) => sql).join(' AND ')}` : '',
    params: conditions.map(([, value]) => value),
  };
}

function toPost(row: PostRow): LocalPost {
  return {
    id: row.id,
    remoteId: row.remote_id,
    botId: row.bot_id,
    text: row.text,
    mediaUrls: JSON.parse(row.media_urls) as string[],
    scheduledAt: row.scheduled_at,
    zone: row.zone,
    status: row.status,
    origin: row.origin,
    publishedAt: row.published_at,
    error: row.error,
    batchId: row.batch_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class PostsStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  create(draft: PostDraft): LocalPost {
    const now = this.now();
    const id = statement(
      this.db,
      `INSERT INTO posts (bot_id, text, media_urls, scheduled_at, zone, status, batch_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      draft.botId,
      draft.text,
      JSON.stringify(draft.mediaUrls),
      draft.scheduledAt,
      draft.zone,
      draft.status ?? 'draft',
      draft.batchId ?? null,
      now,
      now,
    ).lastInsertRowid;
    return this.require(Number(id));
  }

  get(id: number): LocalPost | undefined {
    const row = statement(this.db, 'SELECT * FROM posts WHERE id = ?').get(id) as
      PostRow | undefined;
    return row && toPost(row);
  }

  require(id: number): LocalPost {
    const post = this.get(id);
    if (!post) throw new Error(`No post ${id}`);
    return post;
  }

  /** The ids of the posts made here (not on the platform), in time order as `list` sorts. */
  localIdsByTime(): number[] {
    const rows = statement(this.db, `SELECT id FROM posts WHERE origin = 'local' ${BY_TIME}`).all();
    return (rows as { id: number }[]).map((row) => row.id);
  }

  /** The posts of `ids` still here, in the order of `ids`. */
  getMany(ids: readonly number[]): LocalPost[] {
    const rows = statement(
      this.db,
      'SELECT p.* FROM json_each(?) AS wanted JOIN posts AS p ON p.id = wanted.value ORDER BY wanted.key',
    ).all(JSON.stringify(ids)) as PostRow[];
    return rows.map(toPost);
  }

  list(filter: PostFilter = {}): LocalPost[] {
    const { clause, params } = where(filter);
    const rows = statement(this.db, `SELECT * FROM posts ${clause} ${BY_TIME}`).all(
      ...params,
    ) as PostRow[];
    return rows.map(toPost);
  }

  /**
   * The scheduled posts `list` answers, at most `perDay` a day as `dayOf` names an instant's day
   * (the earliest), and how many each such day leaves out. Only the kept posts are read whole: a
   * month of 5,000 posts reads 5,000 times and a hundred rows, not 5,000 rows.
   */
  listPerDay(
    filter: PostFilter,
    perDay: number,
    dayOf: (ms: number) => string,
  ): { posts: LocalPost[]; hidden: Record<string, number> } {
    const { clause, params } = where(filter);
    const times = statement(this.db, `SELECT id, scheduled_at FROM posts ${clause} ${BY_TIME}`).all(
      ...params,
    ) as Pick<PostRow, 'id' | 'scheduled_at'>[];
    const perWallDay: Record<string, number> = {};
    const hidden: Record<string, number> = {};
    const kept: number[] = [];
    for (const { id, scheduled_at: at } of times) {
      if (at === null) continue;
      const day = dayOf(at);
      const count = (perWallDay[day] = (perWallDay[day] ?? 0) + 1);
      if (count <= perDay) kept.push(id);
      else hidden[day] = count - perDay;
    }
    const rows = statement(
      this.db,
      `SELECT * FROM posts WHERE id IN (SELECT value FROM json_each(?)) ${BY_TIME}`,
    ).all(JSON.stringify(kept)) as PostRow[];
    return { posts: rows.map(toPost), hidden };
  }

  /**
   * The bot's posts that are out or on their way (shared/duplicates.ts COUNTED_STATUSES) whose
   * outgoing time (published, else scheduled) lies in [fromMs, toMs], by that time.
   */
  goingOut(botId: string | null, fromMs: number, toMs: number): LocalPost[] {
    const rows = statement(
      this.db,
      `SELECT * FROM posts WHERE bot_id IS ? AND COALESCE(published_at, scheduled_at) BETWEEN ? AND ?
         AND ${inSet('status', COUNTED_STATUSES)}
       ORDER BY COALESCE(published_at, scheduled_at), id`,
    ).all(botId, fromMs, toMs) as PostRow[];
    return rows.map(toPost);
  }

  /** Posts made on the platform and scheduled there for `from` or later, soonest first. */
  scheduledOnPlatform(from: number, limit: number): LocalPost[] {
    const rows = statement(
      this.db,
      `SELECT * FROM posts WHERE origin = 'remote' AND status = 'scheduled' AND scheduled_at >= ?
       ${BY_TIME} LIMIT ?`,
    ).all(from, limit) as PostRow[];
    return rows.map(toPost);
  }

  /** Changes what the user may change; the caller checks that the post is still editable. */
  update(
    id: number,
    patch: Partial<
      Pick<LocalPost, 'botId' | 'text' | 'mediaUrls' | 'scheduledAt' | 'zone' | 'status'>
    >,
  ): LocalPost {
    const current = this.require(id);
    const next = { ...current, ...patch };
    statement(
      this.db,
      `UPDATE posts SET bot_id = ?, text = ?, media_urls = ?, scheduled_at = ?, zone = ?, status = ?, error = NULL,
           updated_at = ? WHERE id = ?`,
    ).run(
      next.botId,
      next.text,
      JSON.stringify(next.mediaUrls),
      next.scheduledAt,
      next.zone,
      next.status,
      this.now(),
      id,
    );
    return this.require(id);
  }

  /** Deletes a post that never went out (its queue items go with it); false otherwise. */
  remove(id: number): boolean {
    return (
      statement(
        this.db,
        `DELETE FROM posts WHERE id = ? AND origin = 'local' AND ${inSet('status', NOT_GONE_OUT)}`,
      ).run(id).changes > 0
    );
  }

  counts(): Record<PostStatus, number> {
    return keptCounts(this.db, 'posts', POST_STATUSES);
  }
}
