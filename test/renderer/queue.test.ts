import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import type { OutboxItem, QueueRow, Status } from '../../shared/domain';
import QueueScreen from '../../renderer/src/screens/QueueScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { QueueState, gaugeView } from '../../renderer/src/state/queue.svelte';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { outboxItem } from '../support/outbox';
import { FakeTransport, ok, refused } from './fake-transport';
import { ZONE, post, settings } from './post-editor-fixtures';
import { formatDateTime } from '../../renderer/src/lib/format';

const row = (
  id: number,
  state: OutboxItem['state'],
  extra: Partial<OutboxItem> = {},
  fields: Partial<QueueRow> = {},
): QueueRow => ({
  id: `item-${id}`,
  group:
    state === 'failed' ? 'attention' : state === 'done' || state === 'cancelled' ? 'past' : 'next',
  at: Date.UTC(2026, 10, 24, 9, id),
  title: `Post number ${id}`,
  bot: null,
  thumbnailUrl: null,
  postStatus: state === 'failed' ? 'failed' : 'scheduled',
  postId: id,
  onPlatform: false,
  item: outboxItem(id, 'create_post', { postId: id, state, priority: 1, ...extra }),
  ...fields,
});

const missedPost = post({
  id: 7,
  text: 'Fresh rye today',
  scheduledAt: Date.UTC(2026, 10, 22, 8, 0),
  status: 'missed',
});

const status = (patch: Partial<Status> = {}): Status => ({
  outbox: { queued: 1, sending: 0, done: 4, retrying: 0, failed: 1, cancelled: 0 },
  posts: {
    draft: 0,
    scheduled: 0,
    sending: 0,
    published: 0,
    failed: 0,
    missed: 0,
    handed_off: 0,
  },
  products: { draft: 0, queued: 0, sending: 0, published: 0, failed: 0 },
  rateLimit: { limit: 60, remaining: 42, resetAtMs: 10_000, inFlight: 2, waiting: 3, paused: null },
  paused: null,
  online: true,
  requests: 0,
  rateLimited: 0,
  sync: {},
  team: null,
  ...patch,
});

function setup(rows: QueueRow[] = [row(1, 'failed', { lastError: 'text is too long' })]) {
  const transport = new FakeTransport({
    listQueue: () => ok(rows),
    listPosts: () => ok([missedPost]),
    status: () => ok(status()),
  });
  const shell = new Shell(transport);
  return { transport, shell, queue: new QueueState(shell) };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('queue state', () => {
  it('loads every item and the missed posts, filtering by state on the core', async () => {
    const { transport, queue } = setup();
    await queue.load();
    expect(queue.rows.map((item) => item.id)).toEqual(['item-1']);
    expect(queue.missed.map((post) => post.id)).toEqual([7]);
    expect(transport.callsOf('listPosts')).toEqual([{ status: 'missed' }]);
    await queue.setFilter('failed');
    expect(transport.callsOf('listQueue')).toEqual([{}, { states: ['failed'] }]);
  });

  it('retries a failed item, showing it queued at once', async () => {
    const { transport, queue } = setup();
    await queue.load();
    let settle: (value: CallResult) => void = () => undefined;
    transport.answer('retryItem', () => new Promise((resolve) => (settle = resolve)));
    const retried = queue.retry(queue.rows[0]!);
    expect(queue.rows[0]?.item?.state).toBe('queued');
    expect(queue.canRetry(queue.rows[0]!)).toBe(false);
    settle(ok(outboxItem(1, 'create_post', { postId: 1, state: 'queued', readyAt: 5 })));
    await retried;
    expect(transport.callsOf('retryItem')).toEqual([{ id: 1 }]);
    expect(queue.rows[0]).toMatchObject({
      item: { state: 'queued', readyAt: 5 },
      title: 'Post number 1',
    });
  });

  it('rolls a cancel back and shows the core’s message when it is refused', async () => {
    const { transport, shell, queue } = setup([row(2, 'queued')]);
    await queue.load();
    transport.answer('cancelItem', () => refused('the item is already sending', 'not_allowed'));
    await queue.cancel(queue.rows[0]!);
    expect(queue.rows[0]?.item?.state).toBe('queued');
    expect(shell.notices.list.at(-1)?.text).toBe('Could not cancel: the item is already sending');
  });

  it('offers retry and cancel only in the states that allow them', () => {
    const { queue } = setup();
    expect(queue.canRetry(row(1, 'done'))).toBe(false);
    expect(queue.canRetry(row(1, 'cancelled'))).toBe(true);
    expect(queue.canCancel(row(1, 'cancelled'))).toBe(false);
    expect(queue.canCancel(row(1, 'retrying'))).toBe(true);
    expect(queue.canCancel(row(1, 'sending'))).toBe(false);
  });

  it('pauses and resumes, then reads the paused reason from the status', async () => {
    const { transport, shell, queue } = setup();
    transport.answer('pauseQueue', () => ok(null));
    transport.answer('resumeQueue', () => ok(null));
    transport.answer('status', () => ok(status({ paused: 'paused by the user' })));
    await queue.pause();
    expect(transport.callsOf('pauseQueue')).toHaveLength(1);
    expect(queue.paused).toBe('paused by the user');
    transport.answer('status', () => ok(status()));
    await queue.resume();
    expect(transport.callsOf('resumeQueue')).toHaveLength(1);
    expect(queue.paused).toBeNull();
    expect(shell.status?.paused).toBeNull();
  });

  it('counts the gauge down to the reset and never below zero', () => {
    const rate = status().rateLimit;
    expect(gaugeView(rate, 0)).toEqual({
      limit: 60,
      remaining: 42,
      resetsIn: 10,
      inFlight: 2,
      waiting: 3,
    });
    expect(gaugeView(rate, 8_500).resetsIn).toBe(2);
    expect(gaugeView(rate, 9_999).resetsIn).toBe(1);
    expect(gaugeView(rate, 12_000).resetsIn).toBe(0);
  });

  it('ticks the countdown every second while watched', async () => {
    vi.useFakeTimers({ now: 3_000 });
    const { shell, queue } = setup();
    await shell.refreshStatus();
    const stop = queue.watch();
    expect(queue.gauge?.resetsIn).toBe(7);
    vi.advanceTimersByTime(2_000);
    expect(queue.gauge?.resetsIn).toBe(5);
    stop();
  });

  it('reloads on queue events and queue changes, not on others', async () => {
    const { transport, shell, queue } = setup();
    void shell.start();
    const stop = queue.watch();
    transport.emit({
      type: 'failed',
      item: row(1, 'failed').item!,
      reason: 'boom',
      fieldErrors: [],
    });
    await vi.waitFor(() => expect(transport.callsOf('listQueue')).toHaveLength(1));
    transport.emit({ type: 'changed', what: 'queue' });
    await vi.waitFor(() => expect(transport.callsOf('listQueue')).toHaveLength(2));
    transport.emit({ type: 'changed', what: 'products' });
    await Promise.resolve();
    expect(transport.callsOf('listQueue')).toHaveLength(2);
    stop();
    shell.stop();
  });

  it('publishes a missed post now', async () => {
    const { transport, queue } = setup();
    transport.answer('queuePost', () => ok({ ...missedPost, status: 'scheduled' }));
    await queue.publishNow(missedPost.id);
    expect(transport.callsOf('queuePost')).toEqual([{ id: 7, mode: 'publish_now' }]);
  });

  it('reschedules a missed post, or answers the core’s reason and does not queue it', async () => {
    const { transport, queue } = setup();
    transport.answer('updatePost', () => ok(missedPost));
    transport.answer('queuePost', () => ok(missedPost));
    expect(await queue.reschedule(missedPost, '2026-11-24T09:00', 'Europe/Berlin')).toBeNull();
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 7, at: '2026-11-24T09:00', zone: 'Europe/Berlin' },
    ]);
    expect(transport.callsOf('queuePost')).toEqual([{ id: 7, mode: 'schedule' }]);

    transport.answer('updatePost', () =>
      refused('2026-03-29 02:30 does not exist in Europe/Berlin', 'not_allowed'),
    );
    expect(await queue.reschedule(missedPost, '2026-03-29T02:30', 'Europe/Berlin')).toBe(
      '2026-03-29 02:30 does not exist in Europe/Berlin',
    );
    expect(transport.callsOf('queuePost')).toHaveLength(1);
  });
});

describe('the queue screen', () => {
  const onPlatform = row(
    40,
    'queued',
    {},
    {
      id: 'post-40',
      at: Date.UTC(2026, 10, 24, 8, 0),
      title: 'Sourdough class on Saturday',
      bot: { id: 'bot_1', name: 'Bakery Bot', channel: '@bakery' },
      thumbnailUrl: 'https://cdn.example/class.jpg',
      item: null,
      onPlatform: true,
    },
  );
  const product = row(
    3,
    'queued',
    { kind: 'create_product', postId: null, productId: 3 },
    { title: 'Product BK-001 — Rye loaf', postStatus: null, postId: null },
  );
  const failed = row(
    1,
    'failed',
    {
      lastError: 'The platform refused the post',
      fieldErrors: [{ field: 'text', message: 'is too long' }],
      attempts: 3,
    },
    { title: 'Fresh rye today' },
  );

  async function screenWith(rows: QueueRow[]) {
    const context = setup(rows);
    context.transport.answer('getSettings', () => ok(settings));
    await context.shell.loadSettings();
    render(QueueScreen, { context: shellContext(context.shell) });
    return context;
  }

  it('lists what goes next first, each row with its time in the user’s zone, bot, picture and state', async () => {
    await screenWith([onPlatform, product, failed, row(2, 'done')]);
    const next = await screen.findByRole('table', { name: 'Up next' });
    const [first, second] = within(next).getAllByRole('row').slice(1);
    const when = formatDateTime(Date.UTC(2026, 10, 24, 8, 0), ZONE);
    expect(within(first!).getByRole('button', { name: new RegExp(when) }).textContent).toBe(when);
    // 08:00 UTC is 09:00 in Berlin.
    expect(when).toMatch(/\b0?9:00/);
    // The date and the time are pieces of that text, so a narrow table puts one under the other.
    const pieces = within(first!).getByRole('button', { name: new RegExp(when) }).children;
    expect([...pieces].map((piece) => piece.textContent)).toEqual([
      expect.not.stringMatching(/9:00/),
      expect.stringMatching(/^0?9:00/),
    ]);
    expect(first!.textContent).toContain('Sourdough class on Saturday');
    expect(first!.textContent).toContain('Bakery Bot');
    expect(first!.textContent).toContain('@bakery');
    expect(first!.textContent).toContain('Scheduled');
    expect(first!.textContent).toContain('scheduled on the platform');
    expect(first!.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/class.jpg');
    expect(within(first!).queryByRole('button', { name: /Cancel/ })).toBeNull();
    expect(second!.textContent).toContain('Product BK-001 — Rye loaf');
    expect(second!.textContent).not.toContain('#3');

    const attention = screen.getByRole('table', { name: 'Needs attention' });
    expect(attention.textContent).toContain('Fresh rye today');
    expect(attention.textContent).toContain('Failed');
    expect(screen.getByRole('table', { name: 'Sent and cancelled' }).textContent).toContain(
      'Post number 2',
    );
  });

  it('puts what needs attention first, each failure in plain words, the platform’s own one click away', async () => {
    const goneBot = row(
      5,
      'failed',
      {
        lastError: 'POST /posts: 422 validation_failed: bot_id no bot with id "bot_4"',
        fieldErrors: [{ field: 'bot_id', message: 'no bot with id "bot_4"' }],
      },
      {
        title: 'Pop-up stand opens',
        bot: { id: 'bot_4', name: 'A bot no longer on the platform', channel: null },
      },
    );
    const { shell } = await screenWith([row(2, 'queued'), goneBot]);
    const tables = await screen.findAllByRole('table');
    expect(
      tables.map(
        (table) => table.getAttribute('aria-label') ?? table.querySelector('caption')?.textContent,
      ),
    ).toEqual(['Needs attention', 'Up next']);
    const attention = tables[0]!;
    expect(attention.textContent).toContain(
      'The bot this post was for no longer exists on the platform. Pick another bot and publish again.',
    );
    expect(attention.textContent).not.toContain('bot_4');
    expect(attention.textContent).not.toContain('422');
    await fireEvent.click(within(attention).getByRole('button', { name: /Details: Pop-up stand/ }));
    const detail = screen.getByRole('complementary', { name: 'Pop-up stand opens' });
    expect(detail.textContent).toContain('POST /posts: 422 validation_failed');
    await fireEvent.click(within(detail).getByRole('button', { name: 'Open the post' }));
    expect(shell.screen).toBe('calendar');
    expect(shell.postRequested).toBe(5);
  });

  it('offers to open a post whose bot is gone instead of a Retry that would fail the same way', async () => {
    const goneBot = row(
      5,
      'failed',
      {
        lastError: 'POST /posts: 422 validation_failed: bot_id no bot with id "bot_4"',
        fieldErrors: [{ field: 'bot_id', message: 'no bot with id "bot_4"' }],
      },
      { title: 'Pop-up stand opens' },
    );
    const timedOut = row(6, 'failed', { lastError: 'Gave up after 5 attempts' }, { title: 'Rye' });
    const { shell } = await screenWith([goneBot, timedOut]);
    const attention = await screen.findByRole('table', { name: 'Needs attention' });
    expect(
      within(attention).queryByRole('button', { name: 'Retry: Pop-up stand opens' }),
    ).toBeNull();
    within(attention).getByRole('button', { name: 'Retry: Rye' });
    await fireEvent.click(
      within(attention).getByRole('button', { name: 'Open the post: Pop-up stand opens' }),
    );
    expect(shell.postRequested).toBe(5);
    await fireEvent.click(within(attention).getByRole('button', { name: /Details: Pop-up stand/ }));
    const detail = screen.getByRole('complementary', { name: 'Pop-up stand opens' });
    expect(within(detail).queryByRole('button', { name: /^Retry/ })).toBeNull();
  });

  it('moves a cancelled post to the drafts and says so, with no Retry that would publish it now', async () => {
    const { transport, shell } = await screenWith([
      row(6, 'queued', {}, { title: 'Soup of the day' }),
    ]);
    transport.answer('cancelItem', () =>
      ok(outboxItem(6, 'create_post', { postId: 6, state: 'cancelled' })),
    );
    const next = await screen.findByRole('table', { name: 'Up next' });
    await fireEvent.click(
      within(next).getByRole('button', { name: 'Move to drafts: Soup of the day' }),
    );
    expect(transport.callsOf('cancelItem')).toEqual([{ id: 6 }]);
    await vi.waitFor(() =>
      expect(shell.notices.list.map((notice) => notice.text)).toContain(
        'Not published: the post is a draft again.',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Retry: Soup of the day' })).toBeNull();
    expect(screen.getByText('Soup of the day').closest('tr')!.textContent).toContain('Draft');
  });

  it('publishes an up-next post now after asking, and offers it for nothing else', async () => {
    const scheduled = row(6, 'queued', {}, { title: 'Soup of the day' });
    const handedOff = row(8, 'queued', { priority: 2 }, { title: 'The platform has it' });
    const { transport, shell } = await screenWith([scheduled, handedOff, product, failed]);
    transport.answer('queuePost', () => ok(post({ id: 6, status: 'scheduled' })));
    const next = await screen.findByRole('table', { name: 'Up next' });
    // Only the post waiting for its time offers it: not a hand-off, a product or a failure.
    const offered = screen
      .getAllByRole('button', { name: /^Publish now: / })
      .map((button) => button.getAttribute('aria-label'));
    expect(offered).toEqual(['Publish now: Soup of the day']);
    await fireEvent.click(
      within(next).getByRole('button', { name: 'Publish now: Soup of the day' }),
    );
    const question = within(next).getByRole('group', {
      name: `Publish now instead of at ${formatDateTime(scheduled.at, ZONE)} (${ZONE})?`,
    });
    expect(transport.callsOf('queuePost')).toEqual([]);
    await fireEvent.click(within(question).getByRole('button', { name: 'Keep' }));
    expect(transport.callsOf('queuePost')).toEqual([]);
    await fireEvent.click(
      within(next).getByRole('button', { name: 'Publish now: Soup of the day' }),
    );
    await fireEvent.click(within(next).getByRole('button', { name: 'Publish now' }));
    expect(transport.callsOf('queuePost')).toEqual([{ id: 6, mode: 'publish_now' }]);
    await vi.waitFor(() =>
      expect(shell.notices.list.map((notice) => notice.text)).toContain(
        'Post queued to publish now',
      ),
    );
  });

  it('says why a team post waiting for approval cannot be published now', async () => {
    const wait =
      "This post waits for approval: it is in review. The team needs an approver's yes before a post goes out.";
    const { transport, shell } = await screenWith([row(6, 'queued', {}, { title: 'Soup' })]);
    transport.answer('queuePost', () => refused(wait, 'not_allowed'));
    const next = await screen.findByRole('table', { name: 'Up next' });
    await fireEvent.click(within(next).getByRole('button', { name: 'Publish now: Soup' }));
    await fireEvent.click(within(next).getByRole('button', { name: 'Publish now' }));
    await vi.waitFor(() =>
      expect(shell.notices.list.map((notice) => notice.text).join('\n')).toContain(wait),
    );
  });

  it('shows a row’s outbox item in its detail, and retries from it', async () => {
    await screenWith([failed]);
    await fireEvent.click(
      within(await screen.findByRole('table', { name: 'Needs attention' })).getByRole('button', {
        name: /Details: Fresh rye today/,
      }),
    );
    // A refused field is corrected in the post; sent again as it is, it would be refused again.
    const refusedDetail = screen.getByRole('complementary', { name: 'Fresh rye today' });
    expect(refusedDetail.textContent).toContain('text: is too long');
    expect(within(refusedDetail).queryByRole('button', { name: /^Retry/ })).toBeNull();
    within(refusedDetail).getByRole('button', { name: 'Open the post' });
    cleanup();
    const { transport } = await screenWith([
      { ...failed, item: { ...failed.item!, fieldErrors: [] } },
    ]);
    transport.answer('retryItem', () => ok(outboxItem(1, 'create_post', { state: 'queued' })));
    const table = await screen.findByRole('table', { name: 'Needs attention' });
    expect(table.textContent).not.toContain('The platform refused the post');
    await fireEvent.click(within(table).getByRole('button', { name: /Details: Fresh rye today/ }));
    const detail = screen.getByRole('complementary', { name: 'Fresh rye today' });
    expect(detail.textContent).toContain('The platform refused the post');
    expect(detail.textContent).toContain('create post');
    expect(detail.textContent).toContain('key-1');
    expect(detail.textContent).toMatch(/Attempts\s*3/);
    await fireEvent.click(within(detail).getByRole('button', { name: 'Retry: Fresh rye today' }));
    expect(transport.callsOf('retryItem')).toEqual([{ id: 1 }]);
    expect(await screen.findByText('Fresh rye today', { selector: 'li *, li' })).toBeTruthy();
  });

  it('asks the user to look when a lookup could not tell, and sends or marks published on their word', async () => {
    const unsure = row(
      5,
      'failed',
      {
        outcomeUnknown: true,
        lastError: 'Not sure whether it was published: the list was not read to its end.',
      },
      { title: 'Maybe sent' },
    );
    const { transport } = await screenWith([unsure, failed]);
    transport.answer('resendItem', () => ok(outboxItem(5, 'create_post', { state: 'queued' })));
    transport.answer('markItemPublished', () =>
      ok(outboxItem(5, 'create_post', { state: 'done' })),
    );
    const table = await screen.findByRole('table', { name: 'Needs attention' });
    // An item that failed outright has no such question.
    expect(
      within(table).queryByRole('button', { name: /It is there: mark published: Fresh rye today/ }),
    ).toBeNull();
    await fireEvent.click(
      within(table).getByRole('button', { name: 'It is there: mark published: Maybe sent' }),
    );
    expect(transport.callsOf('markItemPublished')).toEqual([{ id: 5 }]);
    cleanup();
    const again = await screenWith([unsure]);
    again.transport.answer('resendItem', () =>
      ok(outboxItem(5, 'create_post', { state: 'queued' })),
    );
    const rows = await screen.findByRole('table', { name: 'Needs attention' });
    await fireEvent.click(
      within(rows).getByRole('button', { name: 'I checked: it is not there, send it: Maybe sent' }),
    );
    expect(again.transport.callsOf('resendItem')).toEqual([{ id: 5 }]);
  });

  it('says what to do when nothing is scheduled', async () => {
    await screenWith([]);
    expect((await screen.findByText(/Nothing is scheduled/)).textContent).toContain('Calendar');
  });
});
