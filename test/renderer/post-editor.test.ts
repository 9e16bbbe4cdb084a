// The post editor (jsdom): its state's checks, calls and DST handling, add to queue and share next
// by the bot's posting schedule, and the dialog as the user sees it, over a fake transport.
import { Temporal } from 'temporal-polyfill';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import PostEditorDialog from '../../renderer/src/components/post-editor/PostEditorDialog.svelte';
import { PostEditor, queuedMessage } from '../../renderer/src/state/post-editor.svelte';
import { TEXT_LIMIT } from '../../renderer/src/state/post-fields.svelte';
import { readWhen } from '../../renderer/src/state/post-when';
import { formatDateTime } from '../../renderer/src/lib/format';
import { ok } from './fake-transport';
import {
  aiReply,
  botSchedule,
  post,
  refused,
  settings,
  shellWith,
  stubJsdom,
  ZONE,
} from './post-editor-fixtures';

const echo = (input: unknown) => ok(post({ id: 40, ...(input as object) }));

beforeAll(stubJsdom);
afterEach(cleanup);

async function newEditor(start: { date?: string; time?: string } = {}) {
  const { shell, transport } = await shellWith({ addPost: echo });
  return { shell, transport, editor: new PostEditor(shell, start) };
}

describe('post editor state', () => {
  it('counts what the platform counts and refuses text over the limit', async () => {
    const { editor, transport } = await newEditor();
    editor.fields.text = '  Fresh rye today  ';
    expect(editor.fields.length).toBe(15);
    editor.fields.text = 'x'.repeat(TEXT_LIMIT + 1);
    expect(editor.fields.tooLong).toBe(true);
    expect(await editor.submit('draft')).toBeUndefined();
    expect(editor.fields.issueFor('text')).toBe(
      `The text is 1 characters too long; the platform takes at most ${TEXT_LIMIT}`,
    );
    expect(transport.callsOf('addPost')).toEqual([]);
  });

  it('checks text, media lines and time before any call', async () => {
    const { editor, transport } = await newEditor();
    editor.media.text = 'https://example.com/a.jpg\nnot a url';
    await editor.submit('schedule');
    expect(editor.fields.issueFor('text')).toBe('Write the post’s text');
    expect(editor.fields.issueFor('mediaUrls')).toBe('Media line 2 is not an http(s) URL');
    expect(editor.fields.issueFor('at')).toBe('Pick a date and time to schedule the post');
    editor.fields.text = 'Hello';
    editor.media.text = '';
    editor.fields.date = '2027-01-10';
    await editor.submit('draft');
    expect(editor.fields.issueFor('at')).toBe('Give both a date and a time, or neither');
    editor.fields.time = '09:00';
    editor.fields.date = '2020-01-10';
    await editor.submit('hand_off');
    expect(editor.fields.issueFor('at')).toBe(
      'The date and time are in the past; publish now instead, or pick a later time',
    );
    editor.fields.date = '';
    editor.fields.time = '';
    expect(editor.fields.issueFor('at')).toBe(
      'Pick a date and time for the platform to publish the post',
    );
    expect(transport.callsOf('addPost')).toEqual([]);
  });

  it('re-checks flagged fields as the user types, so an error clears once it is fixed', async () => {
    const { editor, transport } = await newEditor();
    // Nothing is red before the user tries a button.
    expect(editor.fields.issues).toEqual([]);
    await editor.submit('schedule');
    expect(editor.fields.issueFor('text')).toBe('Write the post’s text');
    editor.fields.text = 'Fresh rye';
    expect(editor.fields.issueFor('text')).toBeUndefined();
    expect(editor.fields.issueFor('at')).toBe('Pick a date and time to schedule the post');
    editor.fields.date = '2027-01-10';
    expect(editor.fields.issueFor('at')).toBe('Give both a date and a time, or neither');
    editor.fields.time = '09:00';
    expect(editor.fields.issues).toEqual([]);
    expect(transport.callsOf('addPost')).toEqual([]);
  });

  it('names the field of a core refusal and clears it once that field changes', async () => {
    const { editor, transport } = await newEditor({ date: '2027-01-10', time: '09:00' });
    editor.fields.text = 'Hi';
    transport.answer('addPost', () =>
      refused('bad input', [
        { field: 'botId', message: 'no bot bot_9' },
        { field: 'mediaUrls[1]', message: 'is not reachable' },
      ]),
    );
    editor.media.text = 'https://example.com/a.jpg\nhttps://example.com/b.jpg';
    await editor.submit('schedule');
    expect(editor.fields.issueFor('botId')).toBe('The bot: no bot bot_9');
    expect(editor.fields.issueFor('mediaUrls')).toBe('Media line 2: is not reachable');
    editor.fields.text = 'Hi there';
    expect(editor.fields.issueFor('botId')).toBe('The bot: no bot bot_9');
    editor.fields.botId = 'bot_2';
    expect(editor.fields.issueFor('botId')).toBeUndefined();
    editor.media.text = 'https://example.com/a.jpg';
    expect(editor.fields.issues).toEqual([]);
  });

  it('adds a new post in each mode, dropping the time when it publishes now', async () => {
    const { editor, transport, shell } = await newEditor({ date: '2027-01-10', time: '09:00' });
    editor.fields.text = '  Fresh rye today ';
    editor.media.text = 'https://example.com/a.jpg\n';
    editor.fields.botId = 'bot_2';
    expect((await editor.submit('schedule'))?.id).toBe(40);
    await editor.submit('hand_off');
    await editor.submit('draft');
    await editor.submit('publish_now');
    const base = {
      text: 'Fresh rye today',
      zone: ZONE,
      mediaUrls: ['https://example.com/a.jpg'],
      botId: 'bot_2',
    };
    expect(transport.callsOf('addPost')).toEqual([
      { ...base, mode: 'schedule', at: '2027-01-10T09:00' },
      { ...base, mode: 'hand_off', at: '2027-01-10T09:00' },
      { ...base, mode: 'draft', at: '2027-01-10T09:00' },
      { ...base, mode: 'publish_now' },
    ]);
    expect(shell.notices.list.map((notice) => notice.text)).toContain('Post scheduled');
  });

  it('saves a draft, then queues it the way the button says', async () => {
    const draft = post({ id: 5, status: 'draft', scheduledAt: null, text: 'Old' });
    const { shell, transport } = await shellWith({
      updatePost: (input) => ok({ ...draft, ...(input as object) }),
      queuePost: () => ok({ ...draft, status: 'scheduled' }),
    });
    const editor = new PostEditor(shell, { post: draft });
    expect(editor.fields.title).toBe('Edit post');
    expect(editor.fields.modes).toEqual(['draft', 'schedule', 'publish_now', 'hand_off']);
    editor.fields.text = 'New';
    await editor.submit('draft');
    expect(transport.callsOf('queuePost')).toEqual([]);
    await editor.submit('publish_now');
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 5, text: 'New', at: null, zone: ZONE, botId: 'bot_1', mediaUrls: [] },
      { id: 5, text: 'New', at: null, zone: ZONE, botId: 'bot_1', mediaUrls: [] },
    ]);
    expect(transport.callsOf('queuePost')).toEqual([{ id: 5, mode: 'publish_now' }]);
  });

  it('offers Schedule or Publish now for a queued post and nothing for one that went out', async () => {
    const { shell } = await shellWith();
    const scheduled = new PostEditor(shell, { post: post({ id: 1 }) });
    expect(scheduled.fields.modes).toEqual(['schedule', 'publish_now']);
    expect([scheduled.fields.date, scheduled.fields.time]).toEqual(['2026-11-23', '09:00']);
    const published = new PostEditor(shell, { post: post({ id: 2, status: 'published' }) });
    expect(published.fields.modes).toEqual([]);
    expect(published.fields.locked).toContain('published');
    expect(await published.submit('schedule')).toBeUndefined();
  });

  it('places the core’s field issues by field and shows other messages whole', async () => {
    const { editor, transport } = await newEditor({ date: '2027-01-10', time: '09:00' });
    editor.fields.text = 'Hi';
    transport.answer('addPost', () =>
      refused('bad input', [{ field: 'botId', message: 'no bot bot_9' }]),
    );
    await editor.submit('schedule');
    expect(editor.fields.issueFor('botId')).toBe('The bot: no bot bot_9');
    expect(editor.fields.failure).toBeNull();
    transport.answer('addPost', () => refused('The platform is unreachable; try again later'));
    await editor.submit('schedule');
    expect(editor.fields.failure).toBe('The platform is unreachable; try again later');
  });

  it('says when a wall time falls in a DST gap, and moves it past the gap on request', async () => {
    const { editor, transport } = await newEditor({ date: '2027-03-28', time: '02:30' });
    editor.fields.text = 'Spring';
    expect(editor.fields.when).toMatchObject({ kind: 'gap', after: '03:30' });
    expect(editor.fields.when.kind === 'gap' && editor.fields.when.message).toContain(
      'does not exist',
    );
    await editor.submit('schedule');
    expect(editor.fields.issueFor('at')).toBe(
      'The clocks skip this time; pick another (see below)',
    );
    expect(transport.callsOf('addPost')).toEqual([]);
    editor.fields.useTimeAfterGap();
    expect(editor.fields.time).toBe('03:30');
    await editor.submit('schedule');
    expect(transport.callsOf('addPost')).toMatchObject([{ at: '2027-03-28T03:30' }]);
  });

  it('asks which of a repeated wall time is meant and sends that one’s offset', async () => {
    const { editor, transport } = await newEditor({ date: '2027-10-31', time: '02:30' });
    editor.fields.text = 'Autumn';
    expect(editor.fields.when).toMatchObject({
      kind: 'overlap',
      offsets: { earlier: '+02:00', later: '+01:00' },
    });
    await editor.submit('schedule');
    expect(editor.fields.issueFor('at')).toBe('Pick which of the two times you mean (see below)');
    editor.fields.reading = 'later';
    await editor.submit('schedule');
    expect(transport.callsOf('addPost')).toMatchObject([{ at: '2027-10-31T02:30+01:00' }]);
  });

  it('reopens a post saved in a repeated hour with the reading it was saved with', async () => {
    const { shell } = await shellWith();
    // 02:30 after the clocks went back in Berlin is 01:30 UTC.
    const later = post({ id: 3, scheduledAt: Date.UTC(2027, 9, 31, 1, 30) });
    expect(new PostEditor(shell, { post: later }).fields.reading).toBe('later');
    const earlier = post({ id: 4, scheduledAt: Date.UTC(2027, 9, 31, 0, 30) });
    expect(new PostEditor(shell, { post: earlier }).fields.reading).toBe('earlier');
  });

  it('reads plain wall times exactly and names bad ones', () => {
    expect(readWhen('', '', ZONE)).toEqual({ kind: 'none' });
    expect(readWhen('2027-01-10', '09:00', ZONE)).toEqual({
      kind: 'exact',
      ms: Date.UTC(2027, 0, 10, 8, 0),
    });
    expect(readWhen('2027-02-30', '09:00', ZONE).kind).toBe('invalid');
  });

  it('fills the text from the AI, appends hashtags, and undoes', async () => {
    const { editor, transport } = await newEditor();
    transport.answer('aiAssist', (input) =>
      ok(aiReply((input as { task: string }).task === 'hashtags' ? '#bread #rye' : 'Rye is back!')),
    );
    editor.fields.text = 'rye bread back in stock tomorrow morning';
    await editor.ai.assist('rephrase');
    expect(editor.fields.text).toBe('Rye is back!');
    expect(editor.ai.reply).toMatchObject({ provider: 'openai', tokens: { total: 20 } });
    await editor.ai.assist('hashtags');
    expect(editor.fields.text).toBe('Rye is back!\n\n#bread #rye');
    expect(transport.callsOf('aiAssist')).toEqual([
      { task: 'rephrase', text: 'rye bread back in stock tomorrow morning' },
      { task: 'hashtags', text: 'Rye is back!' },
    ]);
    editor.ai.undo();
    editor.ai.undo();
    expect(editor.fields.text).toBe('rye bread back in stock tomorrow morning');
    expect(editor.ai.canUndo).toBe(false);
  });

  it('keeps the text and the provider’s message when the AI fails', async () => {
    const { editor, transport } = await newEditor();
    transport.answer('aiAssist', () => refused('every provider failed: quota exceeded'));
    editor.fields.text = 'Keep me';
    await editor.ai.assist('shorten');
    expect(editor.fields.text).toBe('Keep me');
    expect(editor.ai.assistError).toBe('every provider failed: quota exceeded');
    editor.fields.text = ' ';
    await editor.ai.assist('draft');
    expect(editor.ai.assistError).toContain('Write a brief');
    expect(transport.callsOf('aiAssist')).toHaveLength(1);
  });

  it('deletes a draft, and keeps it with the core’s message when refused', async () => {
    const draft = post({ id: 8, status: 'draft' });
    const { shell, transport } = await shellWith({
      deletePost: () => refused('Post 8 is queued already'),
    });
    const editor = new PostEditor(shell, { post: draft });
    expect(await editor.remove()).toBe(false);
    expect(editor.fields.failure).toBe('Post 8 is queued already');
    transport.answer('deletePost', () => ok({ removed: 1 }));
    expect(await editor.remove()).toBe(true);
    expect(transport.callsOf('deletePost')).toEqual([{ id: 8 }, { id: 8 }]);
    expect(
      new PostEditor(shell, { post: post({ id: 9, status: 'published' }) }).fields.canDelete,
    ).toBe(false);
  });
});

function renderDialog(editor: PostEditor) {
  const onsaved = vi.fn();
  const onclose = vi.fn();
  render(PostEditorDialog, { props: { editor, bots: [], onsaved, onclose } });
  return { onsaved, onclose, dialog: screen.getByRole('dialog', { name: 'New post' }) };
}

/** Opens the editor's More menu, as a click would. */
async function openMore(within_: HTMLElement = document.body): Promise<HTMLElement> {
  await fireEvent.click(within(within_).getByRole('button', { name: 'More' }));
  return within(within_).getByRole('menu', { name: 'More' });
}

/** The menu's items as a reader hears them. */
const menuNames = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent?.replace(/\s+/g, ' ').trim());

describe('the post editor dialog', () => {
  it('shows a live count, schedules at the clicked time and closes', async () => {
    const { editor, transport } = await newEditor({ date: '2027-01-10', time: '14:30' });
    const { onsaved, onclose, dialog } = renderDialog(editor);
    const text = within(dialog).getByRole('textbox', { name: 'Text' });
    await fireEvent.input(text, { target: { value: 'Fresh rye' } });
    expect(within(dialog).getByText(`9 / ${TEXT_LIMIT} characters`)).toBeTruthy();
    expect((within(dialog).getByLabelText('Time') as HTMLInputElement).value).toBe('14:30');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(onclose).toHaveBeenCalled();
    expect(transport.callsOf('addPost')).toMatchObject([
      { text: 'Fresh rye', at: '2027-01-10T14:30', mode: 'schedule' },
    ]);
  });

  it('marks the count and the field when the text is too long', async () => {
    const { editor } = await newEditor();
    const { dialog } = renderDialog(editor);
    const text = within(dialog).getByRole('textbox', { name: 'Text' });
    await fireEvent.input(text, { target: { value: 'x'.repeat(TEXT_LIMIT + 2) } });
    expect(within(dialog).getByText(/2 too many/).className).toContain('field-error');
    expect(text.getAttribute('aria-invalid')).toBe('true');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(within(dialog).getByText(/The text is 2 characters too long/)).toBeTruthy();
    await vi.waitFor(() => expect(document.activeElement).toBe(text));
    // Fixing it clears the error at once, before any button.
    await fireEvent.input(text, { target: { value: 'Fresh rye' } });
    expect(within(dialog).queryByText(/too long/)).toBeNull();
    expect(text.getAttribute('aria-invalid')).toBeNull();
  });

  it('has one main action, Save draft until a date and time is set, then Schedule', async () => {
    const { editor } = await newEditor();
    const { dialog } = renderDialog(editor);
    const footer = dialog.querySelector('footer')!;
    const buttons = () =>
      within(footer)
        .getAllByRole('button')
        .map((button) => button.textContent?.trim());
    expect(buttons()).toEqual(['Save draft', 'More ▾', 'Cancel']);
    await fireEvent.input(within(dialog).getByLabelText('Date'), {
      target: { value: '2027-01-10' },
    });
    await fireEvent.input(within(dialog).getByLabelText('Time'), { target: { value: '09:00' } });
    expect(buttons()).toEqual(['Schedule', 'More ▾', 'Cancel']);
    const menu = await openMore(dialog);
    expect(menuNames(menu)).toEqual([
      'Save draft',
      'Publish now',
      'Schedule on the platform (it goes out even with this computer off)',
      'Add to queue (next free slot)',
      'Put first in the queue (the others move one slot later)',
    ]);
    expect(within(dialog).queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });

  it('closes at once when nothing changed, and asks before Cancel or Escape throws changes away', async () => {
    const { editor } = await newEditor();
    const first = renderDialog(editor);
    await fireEvent.click(within(first.dialog).getByRole('button', { name: 'Cancel' }));
    expect(first.onclose).toHaveBeenCalledOnce();
    cleanup();

    const { dialog, onclose } = renderDialog(new PostEditor((await newEditor()).shell));
    await fireEvent.input(within(dialog).getByLabelText(/Text/), {
      target: { value: 'A long text reworked by AI' },
    });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const question = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    await fireEvent.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(onclose).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(dialog.hasAttribute('open')).toBe(true);
    // Escape asks too (the browser's cancel event is held back).
    const escape = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(escape);
    expect(escape.defaultPrevented).toBe(true);
    const again = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await fireEvent.click(within(again).getByRole('button', { name: 'Discard changes' }));
    expect(onclose).toHaveBeenCalledOnce();
  });

  it('moves through the More menu by keyboard and closes it on Escape only', async () => {
    const { editor } = await newEditor();
    const { dialog, onclose } = renderDialog(editor);
    const more = within(dialog).getByRole('button', { name: 'More' });
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.keyDown(more, { key: 'ArrowDown' });
    const items = await vi.waitFor(() => {
      const found = within(dialog).getAllByRole('menuitem');
      expect(document.activeElement).toBe(found[0]);
      return found;
    });
    expect(more.getAttribute('aria-expanded')).toBe('true');
    const menu = within(dialog).getByRole('menu');
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    await fireEvent.keyDown(menu, { key: 'ArrowUp' });
    await fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items.at(-1));
    await fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement).toBe(items[0]);
    await fireEvent.keyDown(menu, { key: 'Escape' });
    expect(within(dialog).queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(more);
    expect(onclose).not.toHaveBeenCalled();
  });

  it('says a DST gap time does not exist and fixes it with one click', async () => {
    const { editor } = await newEditor({ date: '2027-03-28', time: '02:30' });
    const { dialog } = renderDialog(editor);
    expect(
      within(dialog).getByText(/2027-03-28 02:30 does not exist in Europe\/Berlin/),
    ).toBeTruthy();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Use 03:30 instead' }));
    expect((within(dialog).getByLabelText('Time') as HTMLInputElement).value).toBe('03:30');
    expect(within(dialog).queryByText(/does not exist/)).toBeNull();
  });

  it('lets the user pick which repeated time is meant', async () => {
    const { editor } = await newEditor({ date: '2027-10-31', time: '02:30' });
    const { dialog } = renderDialog(editor);
    const group = within(dialog).getByRole('group', { name: /02:30 happens twice/ });
    await fireEvent.click(within(group).getByRole('radio', { name: /The second, at UTC\+01:00/ }));
    expect(editor.fields.reading).toBe('later');
  });

  it('fills the text from AI assist and shows the provider and tokens', async () => {
    const { editor, transport } = await newEditor();
    transport.answer('aiAssist', () => ok(aiReply('Rye is back tomorrow!')));
    const { dialog } = renderDialog(editor);
    const text = within(dialog).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement;
    await fireEvent.input(text, { target: { value: 'rye back tomorrow' } });
    const ai = within(dialog).getByRole('group', { name: 'AI assist' });
    for (const name of ['Draft', 'Shorten', 'Rephrase', 'Hashtags'])
      expect(within(ai).getByRole('button', { name })).toBeTruthy();
    await fireEvent.click(within(ai).getByRole('button', { name: 'Draft' }));
    await vi.waitFor(() => expect(text.value).toBe('Rye is back tomorrow!'));
    expect(ai.textContent).toContain('Answered by openai');
    expect(ai.textContent).toContain('20 tokens');
    expect(ai.textContent).toContain('Tried anthropic first: rate limited');
    expect(transport.callsOf('aiAssist')).toEqual([{ task: 'draft', text: 'rye back tomorrow' }]);
  });

  it('keeps the text and shows the server’s message when the AI fails', async () => {
    const { editor, transport } = await newEditor();
    let answer: (value: CallResult) => void = () => undefined;
    transport.answer('aiAssist', () => new Promise((resolve) => (answer = resolve)));
    const { dialog } = renderDialog(editor);
    const text = within(dialog).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement;
    await fireEvent.input(text, { target: { value: 'Keep me' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Shorten' }));
    expect(within(dialog).getByText('Asking the AI…')).toBeTruthy();
    // The answer would overwrite what is typed meanwhile, so the text waits for it.
    expect(text.readOnly).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Save draft' })).toHaveProperty(
      'disabled',
      true,
    );
    answer(refused('No AI provider answered: quota exceeded'));
    expect(
      await within(dialog).findByText(/AI assist failed: No AI provider answered: quota exceeded/),
    ).toBeTruthy();
    expect(text.value).toBe('Keep me');
    expect(text.readOnly).toBe(false);
  });

  it('never loads a picture from the web itself: the user opens it in the browser', async () => {
    const { editor } = await newEditor();
    const { dialog } = renderDialog(editor);
    await fireEvent.input(within(dialog).getByLabelText('Picture web addresses'), {
      target: { value: 'https://example.com/a.jpg\nhttp://example.com/b.jpg\nnope' },
    });
    // Whoever wrote the address (an imported file's author) would learn who looked, and when.
    expect(within(dialog).queryByRole('img')).toBeNull();
    const links = within(dialog).getAllByRole('link', { name: /^Open in the browser/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://example.com/a.jpg',
      'http://example.com/b.jpg',
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(within(dialog).getByText('Not a valid URL')).toBeTruthy();
  });

  it('shows a published post read-only, saying why', async () => {
    const { shell } = await shellWith();
    const editor = new PostEditor(shell, { post: post({ id: 2, status: 'published' }) });
    render(PostEditorDialog, {
      props: { editor, bots: [], onsaved: vi.fn(), onclose: vi.fn() },
    });
    const dialog = screen.getByRole('dialog', { name: 'Edit post' });
    expect(dialog.textContent).toContain('Read-only: It is published');
    expect(within(dialog).queryByRole('button', { name: 'Schedule' })).toBeNull();
    // The fieldset disables its controls: the property stays false, the :disabled state holds.
    expect(within(dialog).getByLabelText('Date').matches(':disabled')).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('names a post’s deleted bot and its failure in plain words, never by the bot’s id', async () => {
    const { shell } = await shellWith();
    const failed = post({
      id: 3,
      status: 'failed',
      botId: 'bot_gone',
      error: 'POST /posts: 422 validation_failed: bot_id no bot with id "bot_gone"',
    });
    const bakery = { id: 'bot_1', name: 'Bakery', channel: null, status: null, description: null };
    render(PostEditorDialog, {
      props: {
        editor: new PostEditor(shell, { post: failed }),
        bots: [{ ...bakery, pending: 0 }],
        onsaved: vi.fn(),
        onclose: vi.fn(),
      },
    });
    const dialog = screen.getByRole('dialog', { name: 'Edit post' });
    const select = within(dialog).getByRole('combobox', { name: 'Bot' }) as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe('A bot no longer on the platform');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    const attempt = within(dialog).getByText(/^Last attempt:/);
    expect(attempt.textContent).toBe(
      'Last attempt: The bot this post was for no longer exists on the platform. Pick another bot and publish again.',
    );
    // The platform's own words stay one click away.
    const words = within(dialog).getByText('The platform’s words').closest('details');
    expect(words?.textContent).toContain('validation_failed');
    await fireEvent.change(select, { target: { value: 'bot_1' } });
    expect(select.selectedOptions[0]?.textContent).toBe('Bakery');
  });

  it('offers Publish now first for a failed or missed post whose time has passed', async () => {
    const { shell } = await shellWith();
    const bots = [
      { id: 'bot_1', name: 'Bakery', channel: null, status: null, description: null, pending: 0 },
    ];
    const mainButton = (scheduledAt: number, status: 'failed' | 'missed') => {
      cleanup();
      const failed = post({ id: 3, status, botId: 'bot_1', scheduledAt });
      render(PostEditorDialog, {
        props: {
          editor: new PostEditor(shell, { post: failed }),
          bots,
          onsaved: vi.fn(),
          onclose: vi.fn(),
        },
      });
      const dialog = screen.getByRole('dialog', { name: 'Edit post' });
      return dialog.querySelector('footer button.primary, button.primary')?.textContent?.trim();
    };
    expect(mainButton(Date.now() - 3_600_000, 'failed')).toBe('Publish now');
    expect(mainButton(Date.now() - 3_600_000, 'missed')).toBe('Publish now');
    expect(mainButton(Date.now() + 86_400_000, 'failed')).toBe('Schedule');
  });

  it('deletes a scheduled post at once, and Undo writes it again as it was', async () => {
    const at = Date.now() + 86_400_000;
    const scheduled = post({ id: 6, status: 'scheduled', scheduledAt: at, botId: 'bot_1' });
    const { shell, transport } = await shellWith({
      deletePost: () => ok({ removed: 1 }),
      addPost: () => ok(post({ id: 7, status: 'scheduled', scheduledAt: at })),
    });
    const editor = new PostEditor(shell, { post: scheduled });
    const onsaved = vi.fn();
    render(PostEditorDialog, { props: { editor, bots: [], onsaved, onclose: vi.fn() } });
    await fireEvent.click(within(await openMore()).getByRole('menuitem', { name: 'Delete' }));
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(transport.callsOf('deletePost')).toEqual([{ id: 6 }]);
    const notice = shell.notices.list.find((item) => item.text === 'Post deleted')!;
    expect(notice.action?.label).toBe('Undo');
    shell.notices.act(notice);
    await vi.waitFor(() => expect(transport.callsOf('addPost')).toHaveLength(1));
    expect(transport.callsOf('addPost')[0]).toMatchObject({
      text: scheduled.text,
      botId: 'bot_1',
      mode: 'schedule',
      at: Temporal.Instant.fromEpochMilliseconds(at).toString(),
      allowDuplicate: true,
    });
  });

  it('publishes a scheduled post now from the More menu once the user says yes to the question', async () => {
    const at = Date.now() + 86_400_000;
    const scheduled = post({ id: 9, status: 'scheduled', scheduledAt: at, botId: 'bot_1' });
    const { shell, transport } = await shellWith({
      updatePost: (input) => ok({ ...scheduled, ...(input as object) }),
      queuePost: () => ok(scheduled),
    });
    const onsaved = vi.fn();
    const editor = new PostEditor(shell, { post: scheduled });
    render(PostEditorDialog, { props: { editor, bots: [], onsaved, onclose: vi.fn() } });
    const asked = `Publish now instead of at ${formatDateTime(at, ZONE)} (${ZONE})?`;
    await fireEvent.click(within(await openMore()).getByRole('menuitem', { name: 'Publish now' }));
    const question = await screen.findByRole('alertdialog', { name: asked });
    await fireEvent.click(within(question).getByRole('button', { name: 'Keep its time' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(transport.callsOf('queuePost')).toEqual([]);
    expect(onsaved).not.toHaveBeenCalled();

    await fireEvent.click(within(await openMore()).getByRole('menuitem', { name: 'Publish now' }));
    const again = await screen.findByRole('alertdialog', { name: asked });
    await fireEvent.click(within(again).getByRole('button', { name: 'Publish now' }));
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(transport.callsOf('updatePost')).toHaveLength(1);
    expect(transport.callsOf('queuePost')).toEqual([{ id: 9, mode: 'publish_now' }]);
    expect(shell.notices.list.map((notice) => notice.text)).toContain('Post queued to publish now');
  });

  it('moves a scheduled post to the drafts, and duplicates one as a new post', async () => {
    const scheduled = post({ id: 8, status: 'scheduled', scheduledAt: Date.now() + 86_400_000 });
    const { shell, transport } = await shellWith({
      moveToDrafts: () => ok({ ...scheduled, status: 'draft' }),
    });
    const onsaved = vi.fn();
    render(PostEditorDialog, {
      props: {
        editor: new PostEditor(shell, { post: scheduled }),
        bots: [],
        onsaved,
        onclose: vi.fn(),
      },
    });
    const menu = await openMore();
    expect(menuNames(menu)).toEqual([
      'Publish now',
      'Add to queue (next free slot)',
      'Put first in the queue (the others move one slot later)',
      'Duplicate',
      'Move to drafts',
      'Delete',
    ]);
    expect(screen.getByRole('button', { name: 'Schedule' }).className).toContain('primary');
    await fireEvent.click(within(menu).getByRole('menuitem', { name: 'Move to drafts' }));
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(transport.callsOf('moveToDrafts')).toEqual([{ id: 8 }]);

    const copy = new PostEditor(shell, { post: scheduled });
    copy.duplicate();
    expect(copy.fields.title).toBe('New post');
    expect(copy.fields.text).toBe(scheduled.text);
    expect(copy.fields.canDelete).toBe(false);
    expect(copy.fields.modes).toContain('schedule');
  });
});

/** Monday 11 January 2027, 09:00 in Berlin, and the slots after it. */
const SLOT = Date.UTC(2027, 0, 11, 8, 0);
const SLOT_2 = Date.UTC(2027, 0, 11, 11, 30);
const SLOT_3 = Date.UTC(2027, 0, 12, 8, 0);

/** bot_1 posts on weekdays at 09:00 and 12:30; bot_2 has no schedule. */
function schedules(input: unknown) {
  const { botId } = input as { botId: string };
  return ok(
    botId === 'bot_1'
      ? botSchedule('bot_1', 'mon-fri 09:00,12:30', [SLOT, SLOT_2, SLOT_3])
      : botSchedule(botId, ''),
  );
}

async function queueEditor(start: { post?: ReturnType<typeof post>; botId?: string } = {}) {
  const { shell, transport } = await shellWith({ getSchedule: schedules });
  const editor = new PostEditor(shell, start);
  return { shell, transport, editor };
}

describe('add to queue and share next', () => {
  it('says why the queue buttons wait: no bot, a bot without a schedule', async () => {
    const { editor, transport } = await queueEditor();
    expect(editor.fields.queueBlocked).toBe(
      'Choose a bot first: a post joins its bot’s posting schedule',
    );
    editor.fields.botId = 'bot_2';
    expect(editor.fields.queueBlocked).toBe('Reading the bot’s posting schedule…');
    await vi.waitFor(() =>
      expect(editor.fields.queueBlocked).toBe(
        'This bot has no posting schedule yet; set one on the Bots screen',
      ),
    );
    expect(editor.fields.queueNote).toBe(
      'Add to queue and Put first in the queue: This bot has no posting schedule yet; set one on the Bots screen.',
    );
    editor.fields.text = 'Fresh rye';
    expect(await editor.queue('add')).toBeUndefined();
    editor.fields.botId = 'bot_1';
    await vi.waitFor(() => expect(editor.fields.queueBlocked).toBeNull());
    expect(editor.fields.queueNote).toBe(
      'Add to queue takes the bot’s next free slot, Jan 11, 2027, 9:00 AM (Europe/Berlin); Put first in the queue gives the post that slot and moves the queued posts after it one slot later.',
    );
    expect(transport.callsOf('getSchedule')).toEqual([{ botId: 'bot_2' }, { botId: 'bot_1' }]);
    expect(transport.callsOf('addToQueue')).toEqual([]);
  });

  it('uses the default bot’s schedule when no bot is chosen, and says when it cannot be read', async () => {
    const { shell, transport } = await shellWith({
      getSettings: () => ok({ ...settings, defaultBotId: 'bot_1' }),
      getSchedule: () => refused('The workspace database is locked'),
    });
    const editor = new PostEditor(shell, { post: post({ id: 3, botId: null, status: 'draft' }) });
    expect(editor.fields.botId).toBe('');
    await vi.waitFor(() =>
      expect(editor.fields.queueBlocked).toBe(
        'Could not read the bot’s posting schedule: The workspace database is locked',
      ),
    );
    expect(transport.callsOf('getSchedule')).toEqual([{ botId: 'bot_1' }]);
  });

  it('adds a new post to its bot’s next free slot and says when it goes out', async () => {
    const { editor, transport, shell } = await queueEditor({ botId: 'bot_1' });
    transport.answer('addToQueue', (input) =>
      ok(post({ id: 41, ...(input as object), scheduledAt: SLOT })),
    );
    editor.fields.text = '  Fresh rye today ';
    editor.media.text = 'https://example.com/a.jpg';
    await vi.waitFor(() => expect(editor.fields.queueBlocked).toBeNull());
    expect((await editor.queue('add'))?.id).toBe(41);
    expect(transport.callsOf('addToQueue')).toEqual([
      { text: 'Fresh rye today', mediaUrls: ['https://example.com/a.jpg'], botId: 'bot_1' },
    ]);
    expect(shell.notices.list.at(-1)).toMatchObject({
      tone: 'success',
      text: 'Added to the queue: it goes out Jan 11, 2027, 9:00 AM (Europe/Berlin)',
    });
  });

  it('shares a draft next, saving its edits first, and names the posts it moved', async () => {
    const draft = post({ id: 5, status: 'draft', scheduledAt: null, text: 'Old' });
    const { editor, transport, shell } = await queueEditor({ post: draft });
    transport.answer('updatePost', (input) => ok({ ...draft, ...(input as object) }));
    transport.answer('shareNext', () =>
      ok({
        post: { ...draft, text: 'Rye is back', status: 'scheduled', scheduledAt: SLOT },
        moved: [
          { id: 7, from: SLOT, to: SLOT_2 },
          { id: 8, from: SLOT_2, to: SLOT_3 },
        ],
      }),
    );
    editor.fields.text = 'Rye is back';
    await vi.waitFor(() => expect(editor.fields.queueBlocked).toBeNull());
    expect((await editor.queue('next'))?.status).toBe('scheduled');
    // The time is the queue's to pick, so none is sent with the edits.
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 5, text: 'Rye is back', zone: ZONE, botId: 'bot_1', mediaUrls: [] },
    ]);
    expect(transport.callsOf('shareNext')).toEqual([{ id: 5 }]);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'First in the queue: it goes out Jan 11, 2027, 9:00 AM (Europe/Berlin). 2 queued posts moved one slot later: post 7 to Jan 11, 2027, 12:30 PM, post 8 to Jan 12, 2027, 9:00 AM',
    );
  });

  it('sums up a long run of moved posts, and says when nothing moved', () => {
    const placed = post({ id: 1, scheduledAt: SLOT });
    const moved = [7, 8, 9, 10, 11].map((id) => ({ id, from: SLOT, to: SLOT_3 }));
    expect(queuedMessage('next', { post: placed, moved }, ZONE)).toMatch(
      /^First in the queue: .*5 queued posts moved one slot later: post 7 to .*, post 8 to .*, post 9 to .* and 2 more$/,
    );
    expect(queuedMessage('next', { post: placed, moved: [] }, ZONE)).toBe(
      'First in the queue: it goes out Jan 11, 2027, 9:00 AM (Europe/Berlin)',
    );
  });

  it('checks the text first and places the core’s refusal at its field', async () => {
    const { editor, transport } = await queueEditor({ botId: 'bot_1' });
    await vi.waitFor(() => expect(editor.fields.queueBlocked).toBeNull());
    await editor.queue('add');
    expect(editor.fields.issueFor('text')).toBe('Write the post’s text');
    expect(transport.callsOf('addToQueue')).toEqual([]);
    transport.answer('addToQueue', () =>
      refused('bad input', [{ field: 'botId', message: 'has no free slot within a year' }]),
    );
    editor.fields.text = 'Fresh rye';
    expect(await editor.queue('add')).toBeUndefined();
    expect(editor.fields.issueFor('botId')).toBe('The bot: has no free slot within a year');
  });
});

describe('the queue buttons in the dialog', () => {
  it('are disabled with their reason until the bot has a schedule, then queue and close', async () => {
    const { editor, transport } = await queueEditor();
    transport.answer('addToQueue', () => ok(post({ id: 41, scheduledAt: SLOT })));
    const { dialog, onsaved } = renderDialog(editor);
    const menu = await openMore(dialog);
    const add = within(menu).getByRole('menuitem', { name: /^Add to queue/ });
    const next = within(menu).getByRole('menuitem', { name: /^Put first in the queue/ });
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(next.getAttribute('aria-disabled')).toBe('true');
    await fireEvent.click(add);
    expect(transport.callsOf('addToQueue')).toEqual([]);
    const reason = () =>
      document.getElementById(add.getAttribute('aria-describedby')!)?.textContent;
    expect(reason()).toBe(
      'Add to queue and Put first in the queue: Choose a bot first: a post joins its bot’s posting schedule.',
    );
    editor.fields.botId = 'bot_1';
    await vi.waitFor(() => expect(add.getAttribute('aria-disabled')).toBeNull());
    expect(reason()).toContain('next free slot, Jan 11, 2027, 9:00 AM (Europe/Berlin)');
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Text' }), {
      target: { value: 'Fresh rye' },
    });
    await fireEvent.click(add);
    expect(within(dialog).queryByRole('menu')).toBeNull();
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(transport.callsOf('addToQueue')).toEqual([
      { text: 'Fresh rye', mediaUrls: [], botId: 'bot_1' },
    ]);
  });

  it('offers them for a queued post, and none for one that went out', async () => {
    const { editor } = await queueEditor({ post: post({ id: 2 }) });
    render(PostEditorDialog, { props: { editor, bots: [], onsaved: vi.fn(), onclose: vi.fn() } });
    expect(
      within(await openMore()).getByRole('menuitem', { name: /^Put first in the queue/ }),
    ).toBeTruthy();
    cleanup();
    const { editor: gone } = await queueEditor({ post: post({ id: 3, status: 'published' }) });
    render(PostEditorDialog, {
      props: { editor: gone, bots: [], onsaved: vi.fn(), onclose: vi.fn() },
    });
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
    expect(screen.queryByText(/Choose a bot first/)).toBeNull();
  });
});
