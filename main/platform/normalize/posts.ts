// Posts as the platform answers them (Node, main process): the text under any of its usual names,
// fields in snake_case or camelCase,
// and a status of "scheduled" or "published" whatever words the platform uses for them.
import { z } from 'zod';
import { aliases, id, nullableId, nullableInstant, nullableText } from './fields';

const SCHEDULED = new Set(['scheduled', 'pending', 'queued']);
const PUBLISHED = new Set(['published', 'sent', 'live', 'posted']);

export const postSchema = z.preprocess(
  aliases({
    text: ['content', 'message', 'body', 'caption'],
    media_urls: ['media', 'mediaUrls'],
    bot_id: ['botId'],
    scheduled_at: ['scheduledAt'],
    published_at: ['publishedAt'],
    client_reference: ['clientReference'],
    created_at: ['createdAt'],
  }),
  z
    .looseObject({
      id,
      bot_id: nullableId,
      text: z.string(),
      media_urls: z
        .array(z.string())
        .nullish()
        .transform((urls) => urls ?? []),
      status: z.string().nullish(),
      scheduled_at: nullableInstant,
      published_at: nullableInstant,
      client_reference: nullableText,
      created_at: nullableInstant,
    })
    .transform((post) => {
      const said = post.status?.toLowerCase() ?? '';
      const status: 'scheduled' | 'published' = PUBLISHED.has(said)
        ? 'published'
        : SCHEDULED.has(said)
          ? 'scheduled'
          : post.published_at
            ? 'published'
            : 'scheduled';
      return { ...post, status };
    }),
);

export type Post = z.output<typeof postSchema>;
