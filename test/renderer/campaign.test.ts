// AI campaign drafts (jsdom): the estimate shown before sending, drafting with its busy state, the
// drafts edited and removed, saving as drafts or into free slots, a provider failure that keeps
// the brief, a bot without a schedule, and a duplicate saved anyway, over a fake transport.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { estimateCampaign } from '../../shared/campaign';
import type { OperationInput } from '../../shared/contract';
import type { CallResult } from '../../shared/answers';
import type { CampaignDrafts, LocalPost } from '../../shared/domain';
import CampaignDialog from '../../renderer/src/components/campaign/CampaignDialog.svelte';
import { formatDateTime } from '../../renderer/src/lib/format';
import { shellContext } from '../../renderer/src/lib/context';
import CalendarScreen from '../../renderer/src/screens/CalendarScreen.svelte';
import { CampaignState, placeProblems } from '../../renderer/src/state/campaign.svelte';
import { ok } from './fake-transport';
import { aiReply, post, settings, shellWith, stubJsdom, ZONE } from './post-editor-fixtures';

const bots = [
  { id: 'bot_1', name: 'Bakery', channel: 'telegram', status: null, description: null, pending: 0 },
  { id: 'bot_2', name: 'Cafe', channel: 'instagram', status: null, description: null, pending: 0 },
];
const BRIEF = 'Our winter bakery menu: stollen, gingerbread and mulled-wine buns, from Monday.';
const DRAFTS = ['Stollen is back!', 'Gingerbread season starts Monday.', 'Mulled-wine buns, warm.'];

function drafted(patch: Partial<CampaignDrafts> = {}): CampaignDrafts {
  const { provider, model, tokens, attempts } = aiReply('');
  return {
    provider,
    model,
    tokens,
    attempts,
    drafts: DRAFTS,
    requested: 3,
    estimate: estimateCampaign({ brief: BRIEF, count: 3, tone: 'friendly', hashtags: false }),
    truncated: false,
    ...patch,
  };
}

/** The posts the core saved: one per draft sent, with the slot times given. */
const saved =
  (times: (number | null)[] = []) =>
  (input: unknown): CallResult<LocalPost[]> => {
    const { drafts } = input as OperationInput<'saveCampaignDrafts'>;
    return ok(
      drafts.map((text, index) =>
        post({
          id: 100 + index,
          text,
          scheduledAt: times[index] ?? null,
          status: times[index] ? 'scheduled' : 'draft',
        }),
      ),
    );
  };

beforeAll(stubJsdom);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function open(answers: Parameters<typeof shellWith>[0] = {}, defaultBotId?: string) {
  const { shell, transport } = await shellWith({
    ...answers,
    ...(defaultBotId ? { getSettings: () => ok({ ...settings, defaultBotId }) } : {}),
  });
  const campaign = new CampaignState(shell, () => bots);
  const onclose = vi.fn();
  render(CampaignDialog, { props: { campaign, onclose } });
  const dialog = screen.getByRole('dialog', { name: 'Campaign from a brief' });
  return { shell, transport, campaign, onclose, dialog };
}

/** An element's text as read aloud: runs of whitespace are one space. */
const spoken = (element: Element | null | undefined) =>
  element?.textContent?.replace(/\s+/g, ' ').trim();

const textbox = (within_: HTMLElement, name: string) =>
  within(within_).getByRole('textbox', { name }) as HTMLTextAreaElement;

async function draftPosts(dialog: HTMLElement): Promise<void> {
  await fireEvent.input(textbox(dialog, 'Brief'), { target: { value: BRIEF } });
  await fireEvent.click(within(dialog).getByRole('button', { name: 'Draft posts' }));
  await within(dialog).findByRole('textbox', { name: 'Post 1' });
}

describe('campaign state', () => {
  it('places the core’s issues on the drafts sent and the bot, else keeps the message', () => {
    const sent = [
      { key: 7, text: 'a' },
      { key: 9, text: ' ' },
    ];
    expect(
      placeProblems(
        {
          kind: 'invalid_input',
          message: 'drafts[1]: must not be empty',
          issues: [{ field: 'drafts[1]', message: 'must not be empty' }],
        },
        sent,
      ),
    ).toEqual({ drafts: { 9: 'must not be empty' }, bot: null, other: null });
    expect(
      placeProblems(
        {
          kind: 'invalid_input',
          message: 'botId: bot_1 has no posting schedule; set one first',
          issues: [{ field: 'botId', message: 'bot_1 has no posting schedule; set one first' }],
        },
        sent,
      ),
    ).toEqual({ drafts: {}, bot: 'bot_1 has no posting schedule; set one first', other: null });
    expect(placeProblems({ kind: 'internal', message: 'The disk is full' }, sent)).toEqual({
      drafts: {},
      bot: null,
      other: 'The disk is full',
    });
  });

  it('estimates as the core will: with the chosen (or default) bot’s name and channel', async () => {
    const { shell } = await shellWith({
      getSettings: () => ok({ ...settings, defaultBotId: 'bot_2' }),
    });
    const campaign = new CampaignState(shell, () => bots);
    campaign.brief = `  ${BRIEF}  `;
    campaign.count = 5;
    campaign.hashtags = true;
    const request = { brief: BRIEF, count: 5, tone: 'friendly' as const, hashtags: true };
    expect(campaign.estimate).toEqual(
      estimateCampaign({ ...request, channel: 'instagram', botName: 'Cafe' }),
    );
    campaign.botId = 'bot_1';
    campaign.tone = 'urgent';
    expect(campaign.estimate).toEqual(
      estimateCampaign({ ...request, tone: 'urgent', channel: 'telegram', botName: 'Bakery' }),
    );
  });
});

describe('the campaign dialog', () => {
  it('shows the estimated tokens before sending, and sends nothing without a brief', async () => {
    const { transport, dialog } = await open({}, 'bot_1');
    const estimate = () => spoken(within(dialog).getByText(/^Estimated before sending/));
    const expected = (count: number, brief = '') =>
      estimateCampaign({
        brief,
        count,
        tone: 'friendly',
        hashtags: false,
        channel: 'telegram',
        botName: 'Bakery',
      });
    const draftButton = within(dialog).getByRole('button', { name: 'Draft posts' });
    expect(draftButton.getAttribute('aria-describedby')).toBe(
      within(dialog).getByText(/^Estimated before sending/).id,
    );
    await fireEvent.click(draftButton);
    expect(transport.callsOf('draftCampaign')).toEqual([]);
    expect(textbox(dialog, 'Brief').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/Write a brief first/)).toBeTruthy();

    await fireEvent.input(textbox(dialog, 'Brief'), { target: { value: BRIEF } });
    expect(textbox(dialog, 'Brief').getAttribute('aria-invalid')).toBeNull();
    expect(within(dialog).queryByText(/Write a brief first/)).toBeNull();
    const three = expected(3, BRIEF);
    expect(estimate()).toContain(
      `about ${three.total} tokens (${three.prompt} prompt, about ${three.completion} completion), at most ${three.prompt + three.maxTokens}.`,
    );
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Number of posts' }), {
      target: { value: '7' },
    });
    expect(estimate()).toContain(`about ${expected(7, BRIEF).total} tokens`);
    expect(within(dialog).getByRole('combobox', { name: 'Bot' }).textContent).toContain(
      'Default bot (Bakery)',
    );
    expect(transport.callsOf('draftCampaign')).toEqual([]);
  });

  it('drafts with a busy state, then shows the editable drafts and what the call used', async () => {
    let finish: (answer: CallResult) => void = () => undefined;
    const { transport, dialog } = await open({
      draftCampaign: () => new Promise((resolve) => (finish = resolve)),
    });
    await fireEvent.input(textbox(dialog, 'Brief'), { target: { value: `${BRIEF}\n` } });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Bot' }), {
      target: { value: 'bot_2' },
    });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Tone' }), {
      target: { value: 'playful' },
    });
    await fireEvent.click(
      within(dialog).getByRole('checkbox', { name: 'End each post with hashtags' }),
    );
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Draft posts' }));
    expect(transport.callsOf('draftCampaign')).toEqual([
      { brief: BRIEF, count: 3, tone: 'playful', hashtags: true, botId: 'bot_2' },
    ]);
    expect(within(dialog).getByRole('progressbar', { name: 'Drafting the posts' })).toBeTruthy();
    expect(spoken(within(dialog).getByRole('status'))).toContain('Asking the AI for 3 posts…');
    expect(within(dialog).getByRole('button', { name: 'Draft posts' })).toHaveProperty(
      'disabled',
      true,
    );

    finish(ok(drafted()));
    const first = await within(dialog).findByRole('textbox', { name: 'Post 1' });
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect((first as HTMLTextAreaElement).value).toBe(DRAFTS[0]);
    expect(textbox(dialog, 'Post 3').value).toBe(DRAFTS[2]);
    const drafts = within(dialog).getByRole('region', { name: 'Drafts' });
    const used = spoken(drafts.querySelector('p'));
    expect(used).toContain(
      'Answered by openai (gpt-4o-mini) · 20 tokens (12 prompt, 8 completion)',
    );
    expect(used).toContain('Tried anthropic first: rate limited');
    expect(spoken(drafts.querySelectorAll('p')[1])).toBe(
      `Used 20 tokens, against about ${drafted().estimate.total} estimated before sending.`,
    );
    expect(spoken(within(dialog).getByRole('status'))).toContain(
      'Drafting again replaces the drafts below.',
    );
  });

  it('says when the AI gave fewer posts than asked, and why', async () => {
    const { dialog } = await open({
      draftCampaign: () => ok(drafted({ drafts: DRAFTS.slice(0, 2), truncated: true })),
    });
    await draftPosts(dialog);
    expect(spoken(within(dialog).getByRole('note'))).toBe(
      'The AI gave 2 of the 3 posts asked for: its answer was cut at the token limit, so its last, incomplete post was left out.',
    );
  });

  it('saves the drafts as edited and kept, as drafts, then closes', async () => {
    const { transport, shell, dialog, onclose } = await open({
      draftCampaign: () => ok(drafted()),
      saveCampaignDrafts: saved(),
    });
    await draftPosts(dialog);
    await fireEvent.input(textbox(dialog, 'Post 2'), {
      target: { value: 'Gingerbread from Monday, baked at dawn.' },
    });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove post 1' }));
    // What was Post 2 is Post 1 now, and keeps its edit.
    expect(textbox(dialog, 'Post 1').value).toBe('Gingerbread from Monday, baked at dawn.');
    expect(within(dialog).queryByRole('textbox', { name: 'Post 3' })).toBeNull();

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save as drafts' }));
    await vi.waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(transport.callsOf('saveCampaignDrafts')).toEqual([
      {
        drafts: ['Gingerbread from Monday, baked at dawn.', DRAFTS[2]],
        placement: 'drafts',
        allowDuplicate: false,
      },
    ]);
    expect(shell.notices.list.map((notice) => notice.text)).toContain('Saved 2 posts as drafts');
  });

  it('saves into the bot’s free slots and says when they go out', async () => {
    const slots = [
      Date.UTC(2026, 10, 23, 8),
      Date.UTC(2026, 10, 23, 16),
      Date.UTC(2026, 10, 24, 8),
    ];
    const { transport, shell, dialog, onclose } = await open({
      draftCampaign: () => ok(drafted()),
      saveCampaignDrafts: saved(slots),
    });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Bot' }), {
      target: { value: 'bot_1' },
    });
    await draftPosts(dialog);
    const button = within(dialog).getByRole('button', { name: 'Add to free slots' });
    expect(
      spoken(document.getElementById(button.getAttribute('aria-describedby') ?? '')),
    ).toContain('takes the next free slot of Bakery’s posting schedule');
    await fireEvent.click(button);
    await vi.waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(transport.callsOf('saveCampaignDrafts')).toEqual([
      { drafts: DRAFTS, placement: 'slots', allowDuplicate: false, botId: 'bot_1' },
    ]);
    expect(shell.notices.list.at(-1)?.text).toBe(
      `Added 3 posts to free slots: ${formatDateTime(slots[0]!, ZONE)} to ${formatDateTime(slots[2]!, ZONE)}`,
    );
  });

  it('tells a bot without a posting schedule at the bot, and keeps the drafts', async () => {
    const { dialog, onclose } = await open({
      draftCampaign: () => ok(drafted()),
      saveCampaignDrafts: () => ({
        ok: false,
        error: {
          kind: 'invalid_input',
          message: 'botId: bot_1 has no posting schedule; set one first',
          issues: [{ field: 'botId', message: 'bot_1 has no posting schedule; set one first' }],
        },
      }),
    });
    await draftPosts(dialog);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add to free slots' }));
    const bot = within(dialog).getByRole('combobox', { name: 'Bot' });
    await vi.waitFor(() => expect(bot.getAttribute('aria-invalid')).toBe('true'));
    expect(spoken(document.getElementById(bot.getAttribute('aria-describedby') ?? ''))).toBe(
      'Bot: bot_1 has no posting schedule; set one first',
    );
    expect(textbox(dialog, 'Post 3').value).toBe(DRAFTS[2]);
    expect(onclose).not.toHaveBeenCalled();
  });

  it('shows a provider failure with the server’s message, keeping the brief and options', async () => {
    const failure: CallResult = {
      ok: false,
      error: {
        kind: 'platform',
        message: 'POST /ai/chat: 503 ai_unavailable: Every AI provider tried failed (lark, heron)',
        issues: [
          { field: 'lark', message: 'lark: upstream timed out' },
          { field: 'heron', message: 'heron: overloaded' },
        ],
      },
    };
    let calls = 0;
    const { dialog } = await open({
      draftCampaign: () => (calls++ === 0 ? ok(drafted()) : failure),
    });
    await draftPosts(dialog);
    await fireEvent.input(textbox(dialog, 'Post 1'), { target: { value: 'Kept edit' } });
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Number of posts' }), {
      target: { value: '5' },
    });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Draft posts' }));
    const alert = await within(dialog).findByRole('alert');
    expect(spoken(alert)).toContain(
      'The AI could not draft the posts: POST /ai/chat: 503 ai_unavailable: Every AI provider tried failed (lark, heron)',
    );
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['lark: upstream timed out', 'heron: overloaded']);
    expect(spoken(alert)).toContain('Your brief and options are kept');
    expect(textbox(dialog, 'Brief').value).toBe(BRIEF);
    expect(
      (within(dialog).getByRole('combobox', { name: 'Number of posts' }) as HTMLSelectElement)
        .value,
    ).toBe('5');
    // The drafts from before stay too, edits and all.
    expect(textbox(dialog, 'Post 1').value).toBe('Kept edit');
  });

  it('shows a duplicate refusal, marks the repeating draft, and saves anyway on the user’s word', async () => {
    const conflict = {
      postId: 12,
      botId: 'bot_1',
      status: 'scheduled' as const,
      text: 'Stollen is back!',
      at: Date.UTC(2026, 10, 24, 8),
      requestedAt: Date.UTC(2026, 10, 23, 8),
      windowDays: 3,
    };
    const { transport, dialog, onclose } = await open({
      draftCampaign: () => ok(drafted()),
      saveCampaignDrafts: (input) =>
        (input as OperationInput<'saveCampaignDrafts'>).allowDuplicate
          ? saved([1, 2, 3])(input)
          : {
              ok: false,
              error: {
                kind: 'duplicate',
                message:
                  'The same text as post 12 of bot_1, going out 2026-11-24 09:00 (Europe/Berlin), within the 3-day duplicate window',
                duplicate: conflict,
              },
            },
    });
    await draftPosts(dialog);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add to free slots' }));
    const alert = await within(dialog).findByRole('alert');
    expect(spoken(alert)).toContain(
      'Not saved: a post would repeat another. The same text as post 12 of bot_1, going out 2026-11-24 09:00 (Europe/Berlin), within the 3-day duplicate window.',
    );
    expect(spoken(alert)).toContain(
      `Post 12 (scheduled, ${formatDateTime(conflict.at, ZONE)}) reads:`,
    );
    expect(alert.querySelector('blockquote')?.textContent).toBe('Stollen is back!');
    expect(textbox(dialog, 'Post 1').getAttribute('aria-invalid')).toBe('true');
    expect(textbox(dialog, 'Post 2').getAttribute('aria-invalid')).toBeNull();
    expect(onclose).not.toHaveBeenCalled();

    await fireEvent.click(within(alert).getByRole('button', { name: 'Save anyway' }));
    await vi.waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(transport.callsOf('saveCampaignDrafts')).toEqual([
      { drafts: DRAFTS, placement: 'slots', allowDuplicate: false },
      { drafts: DRAFTS, placement: 'slots', allowDuplicate: true },
    ]);
  });

  it('forgets a duplicate refusal once a draft changes', async () => {
    const { dialog } = await open({
      draftCampaign: () => ok(drafted()),
      saveCampaignDrafts: () => ({
        ok: false,
        error: {
          kind: 'duplicate',
          message: 'The same text as post 12 of bot_1',
          duplicate: {
            postId: 12,
            botId: 'bot_1',
            status: 'published',
            text: DRAFTS[0]!,
            at: 0,
            requestedAt: 0,
            windowDays: 3,
          },
        },
      }),
    });
    await draftPosts(dialog);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Add to free slots' }));
    await within(dialog).findByRole('button', { name: 'Save anyway' });
    await fireEvent.input(textbox(dialog, 'Post 1'), { target: { value: 'Stollen, new recipe' } });
    expect(within(dialog).queryByRole('button', { name: 'Save anyway' })).toBeNull();
    expect(textbox(dialog, 'Post 1').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('the calendar screen', () => {
  it('opens the campaign dialog from its toolbar, with the calendar’s bots', async () => {
    const { shell } = await shellWith({
      getCalendar: () => ok({ posts: [], hidden: {}, drafts: [], freeSlots: [], bots }),
    });
    render(CalendarScreen, { context: shellContext(shell) });
    await fireEvent.click(screen.getByRole('button', { name: 'Campaign from a brief' }));
    const dialog = await screen.findByRole('dialog', { name: 'Campaign from a brief' });
    const botSelect = within(dialog).getByRole('combobox', { name: 'Bot' });
    await vi.waitFor(() =>
      expect(
        within(botSelect)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['No bot', 'Bakery', 'Cafe']),
    );
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
