import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import type { ReceivedEvent, WebhookInfo } from '../../shared/domain';
import WebhooksScreen from '../../renderer/src/screens/WebhooksScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { describeEvent, watchOrderNotifications } from '../../renderer/src/state/webhooks.svelte';
import { FakeTransport, ok } from './fake-transport';
import { description } from './fixtures';

const RECEIVER = 'http://127.0.0.1:40123/webhooks';

const order = (id: string, receivedAt: number, number = '1001'): ReceivedEvent => ({
  id,
  type: 'order.created',
  receivedAt,
  payload: {
    id,
    type: 'order.created',
    data: {
      order: {
        number,
        total: '24.50',
        currency: 'EUR',
        items: [{ sku: 'RYE' }, { sku: 'BUN' }],
      },
    },
  },
});

const message: ReceivedEvent = {
  id: 'evt_2',
  type: 'message.received',
  receivedAt: Date.UTC(2026, 10, 23, 9, 0),
  payload: { data: { message: { text: 'Open on Sunday?' }, subscriber: { name: 'Ada' } } },
};

const subscription = (url: string, events: string[] = ['order.created']): WebhookInfo => ({
  id: `wh_${url.length}`,
  url,
  events,
  createdAt: Date.UTC(2026, 10, 22, 8, 0),
});

function setup(
  options: {
    subscriptions?: WebhookInfo[];
    receiverUrl?: string | null;
    feed?: ReceivedEvent[];
  } = {},
  before: (transport: FakeTransport) => void = () => undefined,
) {
  const transport = new FakeTransport({
    listWebhooks: () =>
      ok({
        subscriptions: options.subscriptions ?? [],
        receiverUrl: options.receiverUrl === undefined ? RECEIVER : options.receiverUrl,
      }),
    listReceivedEvents: () => ok(options.feed ?? []),
    getSettings: () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }),
    status: () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }),
  });
  before(transport);
  const shell = new Shell(transport);
  render(WebhooksScreen, { context: shellContext(shell) });
  return { transport, shell };
}

afterEach(() => cleanup());

describe('webhook events', () => {
  it('reads each event kind into one line, tolerating payloads it does not know', () => {
    expect(describeEvent(order('evt_1', 0))).toBe('New order 1001: 2 items, 24.50 EUR');
    expect(describeEvent(message)).toBe('Message from Ada: “Open on Sunday?”');
    expect(
      describeEvent({
        id: 'evt_3',
        type: 'comment.posted',
        receivedAt: 0,
        payload: { data: { comment: { author_name: 'Lin', text: 'Lovely' } } },
      }),
    ).toBe('Comment by Lin: “Lovely”');
    expect(describeEvent({ id: 'e', type: 'order.created', receivedAt: 0, payload: 'odd' })).toBe(
      'New order',
    );
    expect(describeEvent({ id: 'e', type: 'bot.renamed', receivedAt: 0, payload: null })).toBe(
      'bot.renamed',
    );
  });

  it('notifies each new order as information, whatever screen is open, until stopped', () => {
    const transport = new FakeTransport();
    const shell = new Shell(transport);
    void shell.start();
    const stop = watchOrderNotifications(shell);
    transport.emit({ type: 'received', event: order('evt_1', 0, '1042') });
    transport.emit({ type: 'received', event: message });
    expect(shell.notices.list.map(({ tone, text }) => ({ tone, text }))).toEqual([
      { tone: 'info', text: 'New order 1042: 2 items, 24.50 EUR' },
    ]);
    stop();
    transport.emit({ type: 'received', event: order('evt_4', 0) });
    expect(shell.notices.list).toHaveLength(1);
    shell.stop();
  });
});

describe('the webhooks screen', () => {
  it('lists the subscriptions and the receiver’s feed, newest first and verified', async () => {
    const { transport, shell } = setup({
      subscriptions: [subscription(RECEIVER, ['order.created', 'message.received'])],
      feed: [message, order('evt_1', Date.UTC(2026, 10, 23, 8, 0))],
    });
    const table = await screen.findByRole('table', { name: 'Webhook subscriptions' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row.textContent).toContain(RECEIVER);
    expect(row.textContent).toContain('The built-in receiver');
    expect(row.textContent).toContain('message.received');

    const feed = screen.getByRole('log', { name: /Received events/ });
    expect(
      within(feed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('Message from Ada'),
      expect.stringContaining('New order 1001'),
    ]);
    expect(within(feed).getAllByText('✓ Signature verified')).toHaveLength(2);

    void shell.start();
    transport.emit({
      type: 'received',
      event: order('evt_9', Date.UTC(2026, 10, 23, 9, 5), '1003'),
    });
    transport.emit({ type: 'received', event: message });
    await vi.waitFor(() => expect(within(feed).getAllByRole('listitem')).toHaveLength(3));
    expect(within(feed).getAllByRole('listitem')[0]?.textContent).toContain('New order 1003');
    shell.stop();
  });

  it('checks the URL and the events before asking the core', async () => {
    const { transport } = setup();
    const url = await screen.findByLabelText('Receiver URL');
    await fireEvent.input(url, { target: { value: 'ftp://example.com/hook' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await vi.waitFor(() =>
      expect(description(url)).toBe('Receiver URL must be an absolute http or https URL'),
    );
    expect(url.getAttribute('aria-invalid')).toBe('true');

    await fireEvent.input(url, { target: { value: 'https://example.com/hook' } });
    for (const name of ['message.received', 'order.created', 'comment.posted'])
      await fireEvent.click(screen.getByRole('checkbox', { name: new RegExp(name) }));
    await fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect((await screen.findByText(/^Events:/)).textContent).toBe(
      'Events: choose at least one event',
    );
    expect(description(url)).toBe('');
    expect(transport.callsOf('createWebhook')).toEqual([]);
  });

  it('lists a new subscription at once and keeps the platform’s answer', async () => {
    const { transport } = setup({ receiverUrl: null });
    let settle: (result: CallResult) => void = () => undefined;
    transport.answer('createWebhook', () => new Promise((resolve) => (settle = resolve)));
    await fireEvent.input(await screen.findByLabelText('Receiver URL'), {
      target: { value: ' https://shop.example.com/hooks ' },
    });
    await fireEvent.click(screen.getByRole('checkbox', { name: /comment\.posted/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('createWebhook')).toEqual([
        { url: 'https://shop.example.com/hooks', events: ['message.received', 'order.created'] },
      ]),
    );
    const pending = await screen.findByText('Subscribing…');
    expect(pending.closest('tr')?.getAttribute('aria-busy')).toBe('true');
    settle(ok(subscription('https://shop.example.com/hooks')));
    await vi.waitFor(() => expect(screen.queryByText('Subscribing…')).toBeNull());
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect((screen.getByLabelText('Receiver URL') as HTMLInputElement).value).toBe('');
    // No receiver outside the demo workspace, so no live feed either.
    expect(screen.queryByRole('heading', { name: 'Live events' })).toBeNull();
  });

  it('takes a refused subscription away and shows the server’s reasons', async () => {
    const { transport } = setup({ receiverUrl: null });
    transport.answer('createWebhook', () => ({
      ok: false,
      error: {
        kind: 'platform',
        message: 'The platform refused the subscription',
        issues: [{ field: 'url', message: 'must use https' }],
      },
    }));
    const url = await screen.findByLabelText('Receiver URL');
    await fireEvent.input(url, { target: { value: 'http://shop.example.com/hooks' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await vi.waitFor(() => expect(description(url)).toBe('Receiver URL must use https'));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(/No subscriptions yet/)).toBeTruthy();

    transport.answer('createWebhook', () => ({
      ok: false,
      error: { kind: 'not_connected', message: 'No platform account is set' },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect((await screen.findByText('No platform account is set')).getAttribute('role')).toBe(
      'alert',
    );
  });

  it('subscribes the built-in receiver to every event in one click in the demo', async () => {
    const { transport } = setup();
    transport.answer('createWebhook', (input) =>
      ok({ ...(input as { url: string; events: string[] }), id: 'wh_1', createdAt: 0 }),
    );
    expect((await screen.findByText(/No events yet/)).textContent).toContain('not subscribed');
    await fireEvent.click(
      screen.getByRole('button', { name: 'Subscribe the built-in receiver to every event' }),
    );
    await vi.waitFor(() =>
      expect(transport.callsOf('createWebhook')).toEqual([
        { url: RECEIVER, events: ['message.received', 'order.created', 'comment.posted'] },
      ]),
    );
    expect(await screen.findByText(/Waiting for the first event/)).toBeTruthy();
  });

  it('shows why the list could not be read and tries again', async () => {
    const { transport } = setup({}, (fake) =>
      fake.answer('listWebhooks', () => ({
        ok: false,
        error: { kind: 'internal', message: 'listWebhooks failed unexpectedly' },
      })),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'listWebhooks failed unexpectedly',
    );
    transport.answer('listWebhooks', () => ok({ subscriptions: [], receiverUrl: RECEIVER }));
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No subscriptions yet/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Use the built-in receiver' }));
    expect((screen.getByLabelText('Receiver URL') as HTMLInputElement).value).toBe(RECEIVER);
  });
});
