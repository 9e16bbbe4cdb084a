import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallResult, OperationResults } from '../../shared/answers';
import type { AccountSettings } from '../../shared/domain';
import SettingsScreen from '../../renderer/src/screens/SettingsScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { formErrors } from '../../renderer/src/state/forms';
import { FakeTransport, ok } from './fake-transport';
import { bot, chooseZone, description } from './fixtures';

type Settings = OperationResults['getSettings'];

const DEMO: AccountSettings = {
  mode: 'demo',
  apiBase: 'http://127.0.0.1:4010/api/v1',
  tokenHint: null,
  plan: 'free',
};
const ACCOUNT: AccountSettings = {
  mode: 'account',
  apiBase: 'https://api.example.com/api/v1',
  tokenHint: '••••••••3f9a',
  plan: 'pro',
};

function setup(
  account: AccountSettings = DEMO,
  bots = [bot('bot_1', 'Bakery'), bot('bot_2', 'Café')],
) {
  let current: Settings = {
    timezone: 'Europe/Berlin',
    graceMinutes: 30,
    theme: 'system',
    defaultCurrency: 'EUR',
    askBeforePublishingProducts: true,
    defaultBotId: 'bot_1',
    duplicateWindowDays: 3,
    account,
  };
  const transport = new FakeTransport({
    getSettings: () => ok(current),
    listBots: () => ok(bots),
    getMediaHost: () => ok(null),
    getTeam: () => ok({ status: null, members: null, membersProblem: null }),
  });
  const shell = new Shell(transport);
  render(SettingsScreen, { context: shellContext(shell) });
  const change = (patch: Partial<Settings>) => (current = { ...current, ...patch });
  return { transport, shell, change };
}

const refused = (field: string, message: string, kind = 'invalid_input' as const): CallResult => ({
  ok: false,
  error: { kind, message: `${field}: ${message}`, issues: [{ field, message }] },
});

afterEach(() => cleanup());

describe('form errors', () => {
  it('puts each issue under its field and the rest on the form', () => {
    expect(
      formErrors(
        {
          message: 'whole',
          issues: [
            { field: 'events[1]', message: 'is not an event' },
            { field: 'events', message: 'names an event twice' },
            { field: 'secret', message: 'is not a known field' },
            { field: '', message: 'the platform is busy' },
          ],
        },
        ['url', 'events'],
      ),
    ).toEqual({
      fields: { events: 'is not an event; names an event twice' },
      form: 'secret: is not a known field; the platform is busy',
    });
    expect(formErrors({ message: 'No platform account is set' }, ['url'])).toEqual({
      fields: {},
      form: 'No platform account is set',
    });
  });
});

describe('the account section', () => {
  it('shows the demo workspace and offers to connect a real account', async () => {
    setup();
    const account = await screen.findByRole('region', { name: 'Account' });
    const summary = (await within(account).findByText('Workspace')).closest('dl')!;
    expect(summary.textContent).toContain('Demo workspace on the built-in reference server');
    expect(summary.textContent).toContain('http://127.0.0.1:4010/api/v1');
    expect(summary.textContent).toContain("The demo server's own");
    expect(within(account).queryByRole('button', { name: 'Use the demo workspace' })).toBeNull();
    expect(within(account).getByRole('heading', { name: 'Connect your account' })).toBeTruthy();
  });

  it('shows a rejected token next to the token field, in the core’s words', async () => {
    const { transport } = setup();
    transport.answer('connectAccount', () =>
      refused(
        'token',
        "was refused by the platform (401: invalid token); copy it again from the account's API Keys settings",
      ),
    );
    await fireEvent.input(await screen.findByLabelText('Base URL'), {
      target: { value: ' https://api.example.com/api/v1 ' },
    });
    const token = screen.getByLabelText('API token');
    await fireEvent.input(token, { target: { value: 'wrong-token-1234' } });
    await fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'pro' } });
    // The plan says what it changes: how fast Pressroom sends.
    const plan = screen.getByLabelText('Plan');
    expect(within(plan).getByRole('option', { name: /^Pro: 600 requests a minute$/ })).toBeTruthy();
    expect(description(plan)).toMatch(/Your account's plan on the platform .* how fast Pressroom/);
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('connectAccount')).toEqual([
        { apiBase: 'https://api.example.com/api/v1', token: 'wrong-token-1234', plan: 'pro' },
      ]),
    );
    await vi.waitFor(() => expect(token.getAttribute('aria-invalid')).toBe('true'));
    expect(description(token)).toBe(
      "API token was refused by the platform (401: invalid token); copy it again from the account's API Keys settings From the account's settings, section API Keys.",
    );
    expect(screen.getByRole('alert').textContent).toContain('API token was refused');
    expect((token as HTMLInputElement).value).toBe('wrong-token-1234');
  });

  it('checks the fields before testing anything', async () => {
    const { transport } = setup();
    const base = await screen.findByLabelText('Base URL');
    await fireEvent.input(base, { target: { value: 'api.example.com' } });
    await fireEvent.input(screen.getByLabelText('API token'), { target: { value: 'short' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await vi.waitFor(() =>
      expect(description(base)).toBe('Base URL must be an absolute http or https URL'),
    );
    expect(description(screen.getByLabelText('API token'))).toMatch(
      /^API token is too short to be an API token/,
    );
    expect(transport.callsOf('connectAccount')).toEqual([]);
  });

  it('connects, says so, and shows the account with its token masked', async () => {
    const { transport, shell, change } = setup();
    transport.answer('connectAccount', () => {
      change({ account: ACCOUNT });
      return ok(ACCOUNT);
    });
    await fireEvent.input(await screen.findByLabelText('Base URL'), {
      target: { value: 'https://api.example.com/api/v1' },
    });
    await fireEvent.input(screen.getByLabelText('API token'), {
      target: { value: 'a-real-token-3f9a' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('••••••••3f9a')).toBeTruthy();
    expect(screen.getByText('Hidden, ending in 3f9a')).toBeTruthy();
    expect(screen.getByText('Your platform account')).toBeTruthy();
    expect((screen.getByLabelText('API token') as HTMLInputElement).value).toBe('');
    expect(shell.notices.list.at(-1)).toMatchObject({
      tone: 'success',
      text: 'Connected to https://api.example.com/api/v1; the token is kept encrypted',
    });
    expect(screen.getByRole('heading', { name: 'Connect another account' })).toBeTruthy();
  });

  it('goes back to the demo workspace after asking once more', async () => {
    const { transport, change } = setup(ACCOUNT);
    transport.answer('useDemo', () => {
      change({ account: DEMO });
      return ok(DEMO);
    });
    await fireEvent.click(await screen.findByRole('button', { name: 'Use the demo workspace' }));
    expect(transport.callsOf('useDemo')).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Forget the token' }));
    expect(transport.callsOf('useDemo')).toEqual([{}]);
    expect(await screen.findByText('Demo workspace on the built-in reference server')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use the demo workspace' })).toBeNull();
  });
});

describe('the connection test', () => {
  it('asks the core how the platform speaks and lists what it found, in words', async () => {
    const { transport } = setup(ACCOUNT);
    transport.answer('checkConnection', () =>
      ok({
        token: { accepted: true, status: 200, message: 'The platform accepted the token.' },
        rate_limit: {
          headers: 'X-RateLimit-*',
          reset: 'epoch-seconds',
          skew_ms: 90_012,
          limit: null,
          remaining: 19,
        },
        lists: { envelope: 'items', pagination: 'cursor' },
        ids: 'number',
        id_types: { bots: 'number', posts: 'number' },
        errors: { status: 404, shape: 'problem+json' },
        requests: 4,
      }),
    );
    await fireEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(transport.callsOf('checkConnection')).toEqual([{}]);
    const found = await screen.findByRole('list', { name: 'What the connection test found' });
    expect(
      within(found)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'The platform accepted the token.',
      'Pace: the platform says how many requests are left and when the count starts again; Pressroom keeps to it.',
      'Server clock: 90.0 s ahead of this computer’s; Pressroom goes by the server’s.',
      'Lists: read page by page, to the end.',
      'Errors: the platform explains a refusal; Pressroom shows its reason.',
      'The test made 4 requests and changed nothing.',
    ]);
  });
});

describe('the workspace section', () => {
  it('applies a theme at once and keeps it when the core agrees', async () => {
    const { transport, shell } = setup();
    let settle: (result: CallResult) => void = () => undefined;
    transport.answer('saveSettings', () => new Promise((resolve) => (settle = resolve)));
    await fireEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(shell.settings?.theme).toBe('dark');
    expect(transport.callsOf('saveSettings')).toEqual([{ theme: 'dark' }]);
    settle(ok({ ...shell.settings!, theme: 'dark' }));
    await vi.waitFor(() => expect(shell.settings?.account).toEqual(DEMO));
    expect(shell.settings?.theme).toBe('dark');
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
  });

  it('goes back to the previous theme when the core refuses the new one', async () => {
    const { transport, shell } = setup();
    transport.answer('saveSettings', () => ({
      ok: false,
      error: { kind: 'internal', message: 'saveSettings failed unexpectedly' },
    }));
    await fireEvent.click(await screen.findByRole('radio', { name: 'Light' }));
    await vi.waitFor(() => expect(shell.settings?.theme).toBe('system'));
    expect(
      (screen.getByRole('radio', { name: 'Same as the system' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not change the theme: saveSettings failed unexpectedly',
    );
  });

  it('saves the zone, grace period, currency, default bot and duplicate window together', async () => {
    const { transport, shell } = setup();
    transport.answer('saveSettings', (input) => ok({ ...shell.settings!, ...(input as object) }));
    await chooseZone(await screen.findByLabelText('Time zone'), 'Asia/Tokyo');
    await fireEvent.input(screen.getByLabelText('Grace period (minutes)'), {
      target: { value: '45' },
    });
    await fireEvent.input(screen.getByLabelText('Default currency'), { target: { value: 'jpy' } });
    await fireEvent.change(screen.getByLabelText('Default bot'), { target: { value: 'bot_2' } });
    await fireEvent.input(screen.getByLabelText('Duplicate window (days)'), {
      target: { value: '0' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('saveSettings')).toEqual([
        {
          timezone: 'Asia/Tokyo',
          graceMinutes: 45,
          defaultCurrency: 'JPY',
          defaultBotId: 'bot_2',
          duplicateWindowDays: 0,
        },
      ]),
    );
    expect(shell.settings).toMatchObject({ timezone: 'Asia/Tokyo', defaultCurrency: 'JPY' });
    await vi.waitFor(() =>
      expect(shell.notices.list.at(-1)).toMatchObject({ tone: 'success', text: 'Settings saved' }),
    );
    expect((screen.getByLabelText('Default currency') as HTMLInputElement).value).toBe('JPY');
  });

  it('shows mistakes under their fields before asking the core', async () => {
    const { transport } = setup();
    const grace = await screen.findByLabelText('Grace period (minutes)');
    const currency = screen.getByLabelText('Default currency');
    await fireEvent.input(currency, { target: { value: 'EUX' } });
    await fireEvent.input(grace, { target: { value: '' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() => expect(description(grace)).toMatch(/^Grace period is required/));
    await fireEvent.input(grace, { target: { value: '2000' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() =>
      expect(description(currency)).toMatch(
        /^Default currency must be an ISO 4217 code such as EUR/,
      ),
    );
    expect(description(grace)).toMatch(/^Grace period /);
    expect(grace.getAttribute('aria-invalid')).toBe('true');
    expect(transport.callsOf('saveSettings')).toEqual([]);
  });

  it('checks the duplicate window: whole days from 0 (off) to 90', async () => {
    const { transport, shell } = setup();
    const window = await screen.findByLabelText('Duplicate window (days)');
    expect((window as HTMLInputElement).value).toBe('3');
    expect(description(window)).toContain('0 turns the check off');
    for (const [typed, problem] of [
      ['', 'Duplicate window is required'],
      ['91', 'Duplicate window must be a whole number of days from 0 (off) to 90'],
      ['1.5', 'Duplicate window must be a whole number of days from 0 (off) to 90'],
      ['-1', 'Duplicate window must be a whole number of days from 0 (off) to 90'],
    ]) {
      await fireEvent.input(window, { target: { value: typed } });
      await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
      await vi.waitFor(() => expect(description(window).startsWith(problem!)).toBe(true));
      expect(window.getAttribute('aria-invalid')).toBe('true');
    }
    expect(transport.callsOf('saveSettings')).toEqual([]);
    transport.answer('saveSettings', (input) => ok({ ...shell.settings!, ...(input as object) }));
    await fireEvent.input(window, { target: { value: '14' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() => expect(shell.settings?.duplicateWindowDays).toBe(14));
    expect(window.getAttribute('aria-invalid')).toBeNull();
  });

  it('rolls the settings back and shows the core’s reason when it refuses them', async () => {
    const { transport, shell } = setup();
    transport.answer('saveSettings', () => refused('defaultBotId', 'is not a bot of this account'));
    await fireEvent.change(await screen.findByLabelText('Default bot'), {
      target: { value: 'bot_2' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const select = screen.getByLabelText('Default bot');
    await vi.waitFor(() =>
      expect(description(select)).toMatch(/^Default bot is not a bot of this account/),
    );
    expect(shell.settings?.defaultBotId).toBe('bot_1');
    expect((select as HTMLSelectElement).value).toBe('bot_2');
  });

  it('keeps a default bot that is gone, and says how to get bots when there are none', async () => {
    setup(DEMO, []);
    const select = await screen.findByLabelText('Default bot');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No default bot', 'bot_1 (no longer found)']);
    expect((select as HTMLSelectElement).value).toBe('bot_1');
    expect(description(select)).toContain('create one on the Bots screen');
  });
});

describe('the pictures section', () => {
  it('says, with no media host, that posts with uploaded pictures stay drafts, and how to set one', async () => {
    setup(ACCOUNT);
    const pictures = await screen.findByRole('region', { name: 'Pictures' });
    const words = () => pictures.textContent?.replace(/\s+/g, ' ') ?? '';
    await waitFor(() => expect(words()).toContain('No media host yet'));
    expect(words()).toContain('can be saved as a draft, but not scheduled or published');
    expect(words()).toContain('media host --folder DIR --url https://your.site/media/');
  });

  it('sets the host from the desktop dialog at the typed address, and shows a refusal by the field', async () => {
    const { transport } = setup(ACCOUNT);
    const asked: unknown[] = [];
    transport.answer('chooseMediaFolder', (input) => {
      asked.push(input);
      return asked.length === 1
        ? refused('publicBaseUrl', 'must be an absolute http or https URL')
        : ok({ folder: '/srv/www/media', publicBaseUrl: 'https://shop.example/media/' });
    });
    const pictures = await screen.findByRole('region', { name: 'Pictures' });
    const address = await within(pictures).findByLabelText("The folder's public address");
    await fireEvent.input(address, { target: { value: 'shop.example' } });
    await fireEvent.click(within(pictures).getByRole('button', { name: 'Choose folder…' }));
    await waitFor(() => expect(address.getAttribute('aria-invalid')).toBe('true'));
    expect(pictures.textContent).toContain('must be an absolute http or https URL');
    await fireEvent.input(address, { target: { value: 'https://shop.example/media/' } });
    await fireEvent.click(within(pictures).getByRole('button', { name: 'Choose folder…' }));
    await waitFor(() => expect(pictures.textContent).toContain('/srv/www/media'));
    expect(asked).toEqual([
      { publicBaseUrl: 'shop.example' },
      { publicBaseUrl: 'https://shop.example/media/' },
    ]);
  });
});
