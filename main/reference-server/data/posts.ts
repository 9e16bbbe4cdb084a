// Posts of the reference server (Node, main process), published when due, and the comments
// left on them.
import type { Comment, ListEnvelope, Post } from '../../platform/wire';
import { formatId, formatOptionalId, iso, isoOrNull } from '../ids';
import type { PageQuery, Sql } from './sql';

interface PostRow {
  id: number;
  bot_id: number;
  text: string;
  media_urls: string;
  status: 'scheduled' | 'published';
  scheduled_at: number | null;
  published_at: number | null;
  client_reference: string | null;
  created_at: number;
}

export interface PostInput {
  botId: number;
  text: string;
  mediaUrls: string[];
  scheduledAt: number | null;
  clientReference: string | null;
}

function toPost(row: PostRow): Post {
  return {
    id: formatId('post', row.id),
    bot_id: formatId('bot', row.bot_id),
    text: row.text,
    media_urls: JSON.parse(row.media_urls) as string[],
    status: row.status,
    scheduled_at: isoOrNull(row.scheduled_at),
    published_at: isoOrNull(row.published_at),
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
  };
}

export class PostStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  /** The platform publishes scheduled posts when due; doing it before every read is equivalent. */
  publishDuePosts(accountId: number): number {
    const now = this.now();
    // A read first: most reads find nothing due, and a write transaction per GET would cost more.
    const due = this.sql
      .stmt(
        "SELECT 1 FROM posts WHERE status = 'scheduled' AND scheduled_at <= ? AND account_id = ? LIMIT 1",
      )
      .get(now, accountId);
    if (!due) return 0;
    return this.sql
      .stmt(
        `UPDATE posts SET status = 'published', published_at = scheduled_at
       WHERE account_id = ? AND status = 'scheduled' AND scheduled_at <= ?`,
      )
      .run(accountId, now).changes;
  }

  listPosts(
    accountId: number,
    filter: {
      botId?: number | undefined;
      status?: string | undefined;
      clientReference?: string | undefined;
      from?: number | undefined;
      to?: number | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Post> {
    this.publishDuePosts(accountId);
    return this.sql.list<PostRow, Post>(
      'posts',
      '*',
      accountId,
      [
        filter.botId === undefined ? null : ['bot_id = ?', filter.botId],
        filter.status ? ['status = ?', filter.status] : null,
        filter.clientReference ? ['client_reference = ?', filter.clientReference] : null,
        filter.from === undefined
          ? null
          : ['COALESCE(scheduled_at, published_at) >= ?', filter.from],
        filter.to === undefined ? null : ['COALESCE(scheduled_at, published_at) <= ?', filter.to],
      ],
      page,
      toPost,
    );
  }

  createPost(accountId: number, input: PostInput, createdAt = this.now()): Post {
    const due = input.scheduledAt !== null && input.scheduledAt > createdAt;
    const row: Omit<PostRow, 'id'> = {
      bot_id: input.botId,
      text: input.text,
      media_urls: JSON.stringify(input.mediaUrls),
      status: due ? 'scheduled' : 'published',
      scheduled_at: due ? input.scheduledAt : null,
      published_at: due ? null : createdAt,
      client_reference: input.clientReference,
      created_at: createdAt,
    };
    const id = Number(
      this.sql
        .stmt(
          `INSERT INTO posts (account_id, bot_id, text, media_urls, status, scheduled_at, published_at, client_reference, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          accountId,
          row.bot_id,
          row.text,
          row.media_urls,
          row.status,
          row.scheduled_at,
          row.published_at,
          row.client_reference,
          row.created_at,
        ).lastInsertRowid,
    );
    return toPost({ id, ...row });
  }

  publishedPostRowIds(accountId: number): { id: number; bot_id: number }[] {
    this.publishDuePosts(accountId);
    return this.sql
      .stmt(
        "SELECT id, bot_id FROM posts WHERE account_id = ? AND status = 'published' ORDER BY id DESC LIMIT 50",
      )
      .all(accountId) as { id: number; bot_id: number }[];
  }

  createComment(
    accountId: number,
    input: { postId: number | null; botId: number; authorName: string; text: string },
  ): Comment {
    const createdAt = this.now();
    const id = Number(
      this.sql
        .stmt(
          'INSERT INTO comments (account_id, post_id, bot_id, author_name, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(accountId, input.postId, input.botId, input.authorName, input.text, createdAt)
        .lastInsertRowid,
    );
    return {
      id: formatId('comment', id),
      post_id: formatOptionalId('post', input.postId),
      bot_id: formatId('bot', input.botId),
      author_name: input.authorName,
      text: input.text,
      created_at: iso(createdAt),
    };
  }
}
