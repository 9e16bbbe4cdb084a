// The Queue as a schedule of posts (Node, core): outbox items joined with the posts, products,
// bots and subscribers they are about, in words, beside the posts the platform itself will
// publish (made there, scheduled in the future), so the screen reads what goes next first.
import type {
  BotSummary,
  LocalPost,
  OutboxItem,
  OutboxState,
  QueueGroup,
  QueueRow,
} from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import { GONE_BOT_NAME } from '../../shared/domain';
import { clipped } from '../../shared/text';
import type { OutboxStore } from '../store/outbox';

/** What the Queue's rows are read from: the outbox's items and what they are about. */
export type QueueRowsData = Pick<WorkspaceStore, 'posts' | 'products' | 'cache'> & {
  outbox: Pick<OutboxStore, 'rows'>;
};

const GROUP_OF: Record<OutboxState, QueueGroup> = {
  queued: 'next',
  sending: 'next',
  retrying: 'next',
  failed: 'attention',
  done: 'past',
  cancelled: 'past',
};

/** A page may only show https images (the Content-Security-Policy allows no other). */
function httpsOnly(url: string | null | undefined): string | null {
  return url?.startsWith('https://') ? url : null;
}

function clip(text: string, length = 80): string {
  return clipped(text.replace(/\s+/g, ' ').trim(), length);
}

class Names {
  private readonly bots: Map<string, BotSummary>;

  constructor(
    private readonly store: QueueRowsData,
    /** What a page may show for a post's pictures (an https address, an upload's thumbnail). */
    readonly pictureOf: (urls: readonly string[]) => string | null,
  ) {
    this.bots = new Map(store.cache.bots().map((bot) => [bot.id, bot]));
  }

  bot(id: string | null | undefined): QueueRow['bot'] {
    if (!id) return null;
    const bot = this.bots.get(id);
    return {
      id,
      name: bot?.name ?? GONE_BOT_NAME,
      channel: bot?.channel ?? null,
    };
  }

  subscriber(id: string | undefined): string {
    if (!id) return 'a subscriber';
    return this.store.cache.subscriber(id)?.name ?? id;
  }
}

function postRow(
  post: LocalPost,
  names: Names,
  fields: Pick<QueueRow, 'id' | 'group' | 'at' | 'onPlatform' | 'item'>,
): QueueRow {
  return {
    ...fields,
    title: clip(post.text) || 'A post without text',
    bot: names.bot(post.botId),
    thumbnailUrl: names.pictureOf(post.mediaUrls),
    postStatus: post.status,
    postId: post.id,
  };
}

function itemRow(store: QueueRowsData, names: Names, item: OutboxItem): QueueRow {
  const group = GROUP_OF[item.state];
  const fields = {
    id: `item-${item.id}`,
    group,
    at: group === 'next' ? item.readyAt : group === 'attention' ? item.dueAt : item.updatedAt,
    onPlatform: false,
    item,
  };
  const post = item.postId === null ? undefined : store.posts.get(item.postId);
  if (post) return postRow(post, names, fields);
  const payload = item.payload as Record<string, string | undefined>;
  const row = (title: string, bot: QueueRow['bot'] = null, thumbnailUrl: string | null = null) => ({
    ...fields,
    title,
    bot,
    thumbnailUrl,
    postStatus: null,
    postId: null,
  });
  switch (item.kind) {
    case 'create_post':
      return row('A post since deleted');
    case 'create_product': {
      const product = item.productId === null ? undefined : store.products.get(item.productId);
      return product
        ? row(
            `Product ${product.sku} — ${clip(product.name, 60)}`,
            null,
            httpsOnly(product.imageUrl),
          )
        : row('A product since deleted');
    }
    case 'send_message':
      return row(`Message to ${names.subscriber(payload.subscriber_id)}`);
    case 'add_tag':
      return row(`Tag “${payload.tag ?? ''}” for ${names.subscriber(payload.subscriber_id)}`);
    case 'create_bot':
      return row(`New bot “${payload.name ?? ''}”`);
    case 'update_bot':
      return row(`Rename the bot to “${payload.name ?? ''}”`, names.bot(payload.id));
    case 'delete_bot':
      return row('Delete the bot', names.bot(payload.id));
  }
}

/**
 * The Queue's rows: what failed first, so it cannot be missed; then what goes next, soonest first
 * (the outbox's open items and the posts scheduled on the platform, merged by time); then what is
 * over, newest first. A state
 * filter lists items only: a post scheduled on the platform has no item and so no state.
 */
export function queueRows(
  store: QueueRowsData,
  query: { states?: readonly OutboxState[] | undefined; limit: number; now: number },
  pictureOf: (urls: readonly string[]) => string | null,
): QueueRow[] {
  const names = new Names(store, pictureOf);
  const items = store.outbox
    .rows(query.states, query.limit)
    .map((item) => itemRow(store, names, item));
  if (query.states?.length) return items;
  const onPlatform = store.posts.scheduledOnPlatform(query.now, query.limit).map((post) =>
    postRow(post, names, {
      id: `post-${post.id}`,
      group: 'next',
      at: post.scheduledAt ?? query.now,
      onPlatform: true,
      item: null,
    }),
  );
  const next = [...items.filter((row) => row.group === 'next'), ...onPlatform].sort(
    (a, b) => a.at - b.at,
  );
  const inGroup = (group: QueueGroup) => items.filter((row) => row.group === group);
  return [...inGroup('attention'), ...next, ...inGroup('past')].slice(0, query.limit);
}
