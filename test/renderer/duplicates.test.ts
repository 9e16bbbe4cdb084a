// The duplicate-content guard (jsdom): a call the core refuses as a repeat asks the user once, in
// the app's one dialog, and goes again with allowDuplicate on yes; no leaves everything as it was.
// Every guarded call is covered: the post editor's buttons and the calendar's drag.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import DuplicateDialog from '../../renderer/src/components/common/DuplicateDialog.svelte';
import PostEditorDialog from '../../renderer/src/components/post-editor/PostEditorDialog.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { CalendarState } from '../../renderer/src/state/calendar.svelte';
import { describeConflict, DuplicateGuard } from '../../renderer/src/state/duplicates.svelte';
import { PostEditor } from '../../renderer/src/state/post-editor.svelte';
import type { Shell } from '../../renderer/src/state/shell.svelte';
import { ok } from './fake-transport';
import {
  botSchedule,
  duplicateOf,
  post,
  refused,
  shellWith,
  stubJsdom,
  ZONE,
} from './post-editor-fixtures';

beforeAll(stubJsdom);
afterEach(cleanup);

/** Answers `duplicate` until the call comes with allowDuplicate, then what `then` says. */
function refusesRepeats(then: (input: unknown) => CallResult) {
  return (input: unknown) =>
    (input as { allowDuplicate?: boolean }).allowDuplicate ? then(input) : duplicateOf();
}

describe('the duplicate guard', () => {
  it('passes answers through and asks only about duplicates', async () => {
    const guard = new DuplicateGuard();
    const fine = vi.fn(async () => ok('saved'));
    expect(await guard.run(fine)).toEqual(ok('saved'));
    const failing = vi.fn(async () => refused('The platform is unreachable'));
    expect(await guard.run(failing)).toEqual(refused('The platform is unreachable'));
    expect([fine.mock.calls, failing.mock.calls]).toEqual([[[{}]], [[{}]]]);
    expect(guard.question).toBeNull();
  });

  it('sends the call again with allowDuplicate on yes, and not at all on no', async () => {
    const guard = new DuplicateGuard();
    const call = vi.fn(refusesRepeats(() => ok('saved')));
    const insisted = guard.run(async (overrule) => call(overrule));
    await vi.waitFor(() => expect(guard.question?.conflict.postId).toBe(12));
    guard.answer(guard.question!.id, true);
    expect(await insisted).toEqual(ok('saved'));
    expect(call.mock.calls).toEqual([[{}], [{ allowDuplicate: true }]]);

    const declined = guard.run(async (overrule) => call(overrule));
    await vi.waitFor(() => expect(guard.question).not.toBeNull());
    guard.answer(guard.question!.id, false);
    expect(await declined).toBeNull();
    expect(call).toHaveBeenCalledTimes(3);
    expect(guard.question).toBeNull();
  });

  it('asks one question at a time, in the order asked', async () => {
    const guard = new DuplicateGuard();
    const first = guard.run(async () => duplicateOf({ postId: 1 }));
    const second = guard.run(async () => duplicateOf({ postId: 2 }));
    await vi.waitFor(() => expect(guard.question?.conflict.postId).toBe(1));
    const asked = guard.question!.id;
    guard.answer(asked, false);
    guard.answer(asked, true); // a second answer to the same question changes nothing
    expect(guard.question?.conflict.postId).toBe(2);
    guard.answer(guard.question!.id, false);
    expect([await first, await second]).toEqual([null, null]);
  });

  it('words the other post by its first line, status and time in the user’s zone', () => {
    const refusal = duplicateOf();
    const conflict = refusal.ok ? undefined : refusal.error.duplicate;
    expect(describeConflict(conflict!, ZONE, Date.UTC(2099, 0, 1))).toEqual({
      postId: 12,
      firstLine: 'Fresh rye today',
      status: 'Scheduled',
      timing: 'goes out Nov 24, 2099, 9:00 AM (Europe/Berlin)',
      requested: 'Nov 25, 2099, 9:00 AM (Europe/Berlin)',
      window: '3 days',
    });
    const published = {
      ...conflict!,
      status: 'published' as const,
      at: Date.UTC(2026, 0, 5, 8),
      windowDays: 1,
    };
    expect(describeConflict(published, 'America/New_York', Date.UTC(2026, 0, 6))).toMatchObject({
      status: 'Published',
      timing: 'went out Jan 5, 2026, 3:00 AM (America/New_York)',
      window: '1 day',
    });
  });
});

/** The post editor with the app's duplicate dialog beside it, as App.svelte mounts it. */
function renderEditor(shell: Shell, editor: PostEditor) {
  const onsaved = vi.fn();
  render(PostEditorDialog, { props: { editor, bots: [], onsaved, onclose: vi.fn() } });
  render(DuplicateDialog, { context: shellContext(shell) });
  return { onsaved, editorDialog: screen.getByRole('dialog', { name: /post$/ }) };
}

describe('the duplicate question in the post editor', () => {
  it('names the other post and the window, and schedules anyway on confirm', async () => {
    const { shell, transport } = await shellWith({
      addPost: refusesRepeats((input) => ok(post({ id: 40, ...(input as object) }))),
    });
    const editor = new PostEditor(shell, { date: '2099-11-25', time: '09:00' });
    const { onsaved, editorDialog } = renderEditor(shell, editor);
    await fireEvent.input(within(editorDialog).getByRole('textbox', { name: 'Text' }), {
      target: { value: 'fresh RYE today' },
    });
    await fireEvent.click(within(editorDialog).getByRole('button', { name: 'Schedule' }));
    const question = await screen.findByRole('alertdialog', { name: 'Post the same text again?' });
    expect(question.textContent?.replace(/\s+/g, ' ')).toContain(
      'Post 12 of this bot says the same, and goes out Nov 24, 2099, 9:00 AM (Europe/Berlin); this one would go out Nov 25, 2099, 9:00 AM (Europe/Berlin). Posts with the same text within 3 days of each other count as duplicates.',
    );
    expect(within(question).getByText('“Fresh rye today”')).toBeTruthy();
    expect(within(question).getByText('Scheduled')).toBeTruthy();
    // The safe answer is the one focused first.
    expect(within(question).getByRole('button', { name: 'Cancel' }).hasAttribute('autofocus')).toBe(
      true,
    );
    await fireEvent.click(within(question).getByRole('button', { name: 'Post anyway' }));
    await vi.waitFor(() => expect(onsaved).toHaveBeenCalled());
    expect(transport.callsOf('addPost')).toEqual([
      {
        text: 'fresh RYE today',
        zone: ZONE,
        mediaUrls: [],
        mode: 'schedule',
        at: '2099-11-25T09:00',
      },
      {
        text: 'fresh RYE today',
        zone: ZONE,
        mediaUrls: [],
        mode: 'schedule',
        at: '2099-11-25T09:00',
        allowDuplicate: true,
      },
    ]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the editor as it was on cancel, with nothing sent again and no error', async () => {
    const { shell, transport } = await shellWith({ addPost: () => duplicateOf() });
    const editor = new PostEditor(shell, { date: '2099-11-25', time: '09:00' });
    const { onsaved, editorDialog } = renderEditor(shell, editor);
    const text = within(editorDialog).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement;
    await fireEvent.input(text, { target: { value: 'Fresh rye today' } });
    // Publish now is one of the More menu's actions.
    await fireEvent.click(within(editorDialog).getByRole('button', { name: 'More' }));
    await fireEvent.click(within(editorDialog).getByRole('menuitem', { name: 'Publish now' }));
    const question = await screen.findByRole('alertdialog');
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await vi.waitFor(() => expect(editor.busy).toBe(false));
    expect(transport.callsOf('addPost')).toHaveLength(1);
    expect(onsaved).not.toHaveBeenCalled();
    expect(editorDialog.hasAttribute('open')).toBe(true);
    expect(text.value).toBe('Fresh rye today');
    expect(within(editorDialog).queryByRole('alert')).toBeNull();
    expect(shell.notices.list).toEqual([]);
  });

  it('guards saving a queued post, queueing a draft, add to queue and share next alike', async () => {
    const queued = post({ id: 6, scheduledAt: Date.UTC(2099, 0, 4, 8) });
    const draft = post({ id: 5, status: 'draft', scheduledAt: Date.UTC(2099, 0, 4, 8) });
    const stored = (input: unknown) => ((input as { id: number }).id === 5 ? draft : queued);
    const { shell, transport } = await shellWith({
      getSchedule: () => ok(botSchedule('bot_1', 'mon 09:00', [Date.UTC(2099, 0, 5, 8)])),
      updatePost: refusesRepeats((input) => ok({ ...stored(input), ...(input as object) })),
      queuePost: refusesRepeats(() => ok({ ...draft, status: 'scheduled' })),
      addToQueue: refusesRepeats(() => ok({ ...draft, status: 'scheduled' })),
      shareNext: refusesRepeats(() => ok({ post: { ...draft, status: 'scheduled' }, moved: [] })),
    });
    /** Runs an action, saying yes to every duplicate question it asks, until it is done. */
    async function insisting<T>(action: Promise<T>): Promise<T> {
      let done = false;
      void action.finally(() => (done = true));
      while (!done) {
        await vi.waitFor(() => expect(done || shell.duplicates.question !== null).toBe(true));
        const question = shell.duplicates.question;
        if (question) shell.duplicates.answer(question.id, true);
      }
      return action;
    }
    expect(
      await insisting(new PostEditor(shell, { post: queued }).submit('schedule')),
    ).toBeDefined();
    const editor = new PostEditor(shell, { post: draft });
    await vi.waitFor(() => expect(editor.fields.queueBlocked).toBeNull());
    expect(await insisting(editor.submit('schedule'))).toBeDefined();
    expect(await insisting(editor.queue('add'))).toBeDefined();
    expect(await insisting(editor.queue('next'))).toBeDefined();
    const insisted = (operation: 'updatePost' | 'queuePost' | 'addToQueue' | 'shareNext') =>
      transport
        .callsOf(operation)
        .map((input) => (input as { allowDuplicate?: boolean }).allowDuplicate ?? false);
    expect(insisted('queuePost')).toEqual([false, true]);
    expect(insisted('addToQueue')).toEqual([false, true]);
    expect(insisted('shareNext')).toEqual([false, true]);
    // The queued post's save, then the draft's before each of its three buttons: asked once each.
    expect(insisted('updatePost')).toEqual([false, true, false, true, false, true, false, true]);
  });
});

describe('the duplicate question on a calendar drag', () => {
  const week = { start: '2099-11-23T00:00:00', end: '2099-11-30T00:00:00', view: 'timeGridWeek' };

  async function dragSetup() {
    const original = post({ id: 1, scheduledAt: Date.UTC(2099, 10, 23, 8) });
    const { shell, transport } = await shellWith({
      getCalendar: () => ok({ posts: [original], hidden: {}, drafts: [], freeSlots: [], bots: [] }),
      updatePost: refusesRepeats((input) =>
        ok({ ...original, scheduledAt: Date.parse((input as { at: string }).at) }),
      ),
    });
    const calendar = new CalendarState(shell);
    await calendar.setRange(week);
    return { shell, transport, calendar };
  }

  it('moves the post once the user confirms', async () => {
    const { shell, transport, calendar } = await dragSetup();
    const moving = calendar.moves.reschedule(1, '2099-11-25T09:00');
    await vi.waitFor(() => expect(shell.duplicates.question).not.toBeNull());
    // Shown at the new time while the user decides.
    expect(calendar.events[0]?.start).toBe('2099-11-25T09:00:00');
    shell.duplicates.answer(shell.duplicates.question!.id, true);
    expect(await moving).toBeNull();
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 1, at: '2099-11-25T09:00+01:00', zone: ZONE },
      { id: 1, at: '2099-11-25T09:00+01:00', zone: ZONE, allowDuplicate: true },
    ]);
    expect(calendar.events[0]?.start).toBe('2099-11-25T09:00:00');
  });

  it('puts the post back without an error when the user cancels', async () => {
    const { shell, transport, calendar } = await dragSetup();
    const moving = calendar.moves.reschedule(1, '2099-11-25T09:00');
    await vi.waitFor(() => expect(shell.duplicates.question).not.toBeNull());
    shell.duplicates.answer(shell.duplicates.question!.id, false);
    // A reason, so the calendar reverts the drop; the user chose it, so no notice says it failed.
    expect(await moving).toBe('kept where it was');
    expect(calendar.events[0]?.start).toBe('2099-11-23T09:00:00');
    expect(transport.callsOf('updatePost')).toHaveLength(1);
    expect(shell.notices.list).toEqual([]);
  });
});
