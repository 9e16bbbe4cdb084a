// Approvals on the team server: who may move a post between which states, the stale-state check,
// two approvers racing, comments and history, edits that reset an approval, and the publish claim
// refused for an unapproved post whatever a desktop's own copy says.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { ApprovalState, TeamRole } from '../../shared/team';
import { CONTROL_POSTS, postsMap } from '../../shared/team-doc';
import type { ControlPostEntry, SharedPostFields } from '../../shared/team-doc';
import type { TeamConnection } from '../../main/team-client/connection';
import { startTestTeam, until, writePost } from '../support/team';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

interface Desk {
  connection: TeamConnection;
  doc: Y.Doc;
}

async function desks(roles: TeamRole[]): Promise<Desk[]> {
  team = await startTestTeam();
  const all = roles.map((role) => {
    const doc = new Y.Doc();
    const token = role === 'owner' ? team!.ownerToken : team!.invite(role, `${role} person`);
    return { connection: team!.connect(token, doc), doc };
  });
  await Promise.all(all.map((desk) => desk.connection.whenSynced()));
  return all;
}

/** A post written by `author`, seen by every other desk. */
async function shared(
  author: Desk,
  others: Desk[],
  fields: Partial<SharedPostFields> = {},
): Promise<string> {
  const uuid = randomUUID();
  writePost(author.doc, uuid, 'Summer sale', fields);
  await until(() => others.every((desk) => postsMap(desk.doc).has(uuid)), 2000, 'the post');
  return uuid;
}

function move(desk: Desk, post: string, from: ApprovalState, to: ApprovalState, comment?: string) {
  return desk.connection.request({ kind: 'transition', post, from, to, comment });
}

function controlOf(desk: Desk, post: string): ControlPostEntry | undefined {
  return desk.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS).get(post);
}

const due = () => ({ status: 'scheduled' as const, scheduledAt: Date.now() - 1000 });

describe('approval transitions: role and state', () => {
  it('lets each role make the moves it may and refuses the others with a sentence', async () => {
    const [owner, approver, editor] = await desks(['owner', 'approver', 'editor']);
    const post = await shared(editor!, [owner!, approver!]);

    expect(await move(editor!, post, 'draft', 'in_review')).toMatchObject({
      ok: true,
      value: { state: 'in_review' },
    });
    expect(await move(editor!, post, 'in_review', 'approved')).toEqual({
      ok: false,
      code: 'forbidden',
      error: 'Only an approver can approve this post; Settings → Team lists who can.',
    });
    expect(await move(editor!, post, 'in_review', 'changes_requested', 'no')).toMatchObject({
      ok: false,
      code: 'forbidden',
      error: expect.stringMatching(/^Only an approver can send this post back/),
    });
    expect(await move(approver!, post, 'in_review', 'changes_requested', 'Say 20%.')).toMatchObject(
      {
        ok: true,
        value: { state: 'changes_requested' },
      },
    );
    expect(await move(approver!, post, 'changes_requested', 'approved')).toMatchObject({
      ok: false,
      code: 'invalid',
      error: 'A post sent back for changes cannot become approved.',
    });
    expect(await move(editor!, post, 'changes_requested', 'in_review')).toMatchObject({ ok: true });
    expect(await move(owner!, post, 'in_review', 'approved')).toMatchObject({
      ok: true,
      value: { state: 'approved', pastDue: null },
    });
    await until(() => controlOf(editor!, post)?.approval === 'approved', 2000, 'the state');
    expect(controlOf(editor!, post)).toMatchObject({
      author: expect.stringMatching(/^m_/),
      approvalBy: expect.stringMatching(/^m_/),
    });
  });

  it('refuses every move from a viewer, even one its desktop claims it may make', async () => {
    const [owner, viewer] = await desks(['owner', 'viewer']);
    const post = await shared(owner!, [viewer!]);
    expect(await move(viewer!, post, 'draft', 'in_review')).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(
      await viewer!.connection.request({ kind: 'set_approval', required: false, bots: null }),
    ).toMatchObject({ ok: false, code: 'forbidden' });
    // Reading is a viewer's right.
    expect(await viewer!.connection.request({ kind: 'approval', post })).toMatchObject({
      ok: true,
      value: { state: 'draft' },
    });
  });

  it('refuses a stale request with what changed, and gives two racing approvers one result', async () => {
    const [editor, first, second] = await desks(['editor', 'approver', 'approver']);
    const post = await shared(editor!, [first!, second!]);
    await move(editor!, post, 'draft', 'in_review');
    const answers = await Promise.all([
      move(first!, post, 'in_review', 'approved'),
      move(second!, post, 'in_review', 'changes_requested', 'Shorter, please.'),
    ]);
    const won = answers.filter((answer) => answer.ok);
    const lost = answers.filter((answer) => !answer.ok);
    expect(won).toHaveLength(1);
    expect(lost).toEqual([
      {
        ok: false,
        code: 'stale_state',
        error: expect.stringMatching(
          /^approver person (approved this post|sent this post back for changes) at \d{4}-\d\d-\d\d \d\d:\d\d UTC: it is (approved|sent back for changes) now, not in review\.$/,
        ),
      },
    ]);
    const read = await editor!.connection.request({ kind: 'approval', post });
    if (!read.ok) throw new Error(read.error);
    // One move out of review is in the history, never two.
    expect(
      read.value.history.filter((entry) => entry.action.startsWith('in_review→')),
    ).toHaveLength(1);
  });
});

describe('comments and history', () => {
  it('needs a comment to send a post back, refuses an empty or overlong one, and keeps them with author and time', async () => {
    const [editor, approver] = await desks(['editor', 'approver']);
    const post = await shared(editor!, [approver!]);
    await move(editor!, post, 'draft', 'in_review');
    expect(await move(approver!, post, 'in_review', 'changes_requested')).toEqual({
      ok: false,
      code: 'invalid',
      error: 'Say what to change: sending a post back needs a comment.',
    });
    expect(await move(approver!, post, 'in_review', 'changes_requested', '   ')).toMatchObject({
      code: 'invalid',
    });
    expect(
      await approver!.connection.request({ kind: 'comment', post, text: 'x'.repeat(1001) }),
    ).toEqual({
      ok: false,
      code: 'invalid',
      error: 'A comment is at most 1,000 characters; this one has 1,001.',
    });
    expect(await approver!.connection.request({ kind: 'comment', post, text: '' })).toMatchObject({
      ok: false,
      error: 'A comment cannot be empty.',
    });
    await move(approver!, post, 'in_review', 'changes_requested', 'Name the discount.');
    await editor!.connection.request({ kind: 'comment', post, text: 'Done: 20% off.' });
    const read = await approver!.connection.request({ kind: 'approval', post });
    if (!read.ok) throw new Error(read.error);
    expect(read.value.state).toBe('changes_requested');
    expect(read.value.comments.map(({ name, text }) => [name, text])).toEqual([
      ['approver person', 'Name the discount.'],
      ['editor person', 'Done: 20% off.'],
    ]);
    expect(read.value.comments.every((comment) => comment.at > 0)).toBe(true);
    expect(read.value.history.map((entry) => [entry.name, entry.action])).toEqual([
      ['editor person', 'draft→in_review'],
      ['approver person', 'in_review→changes_requested'],
      ['editor person', 'comment'],
    ]);
    expect(
      await editor!.connection.request({ kind: 'comment', post: randomUUID(), text: 'hello' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
    // A post carries at most 500 comments, whichever way they come.
    const fill = team!.server.db.prepare(
      "INSERT INTO comments (team_id, post_uuid, member, at, text) VALUES (?, ?, 'm_x', 0, 'x')",
    );
    for (let i = 0; i < 498; i++) fill.run(team!.teamId, post);
    expect(await editor!.connection.request({ kind: 'comment', post, text: 'one more' })).toEqual({
      ok: false,
      code: 'invalid',
      error: 'A post carries at most 500 comments.',
    });
    await move(editor!, post, 'changes_requested', 'in_review');
    expect(await move(approver!, post, 'in_review', 'changes_requested', 'More?')).toMatchObject({
      ok: false,
      error: 'A post carries at most 500 comments.',
    });
  });

  it('lists the team log, filtered by person', async () => {
    const [owner, editor] = await desks(['owner', 'editor']);
    const post = await shared(editor!, [owner!]);
    await move(editor!, post, 'draft', 'in_review');
    await move(owner!, post, 'in_review', 'approved');
    const all = await owner!.connection.request({ kind: 'log' });
    if (!all.ok) throw new Error(all.error);
    // The log holds members' edits too (the editor wrote the post), besides the states.
    expect(all.value.entries.map((entry) => entry.action)).toEqual([
      'edit',
      'draft→in_review',
      'in_review→approved',
    ]);
    const editorId = all.value.entries[0]!.member;
    const mine = await owner!.connection.request({ kind: 'log', member: editorId });
    if (!mine.ok) throw new Error(mine.error);
    expect(mine.value.entries.map((entry) => [entry.name, entry.action])).toEqual([
      ['editor person', 'edit'],
      ['editor person', 'draft→in_review'],
    ]);
  });
});

describe('nothing unapproved goes out', () => {
  it('refuses the claim of an unapproved post even when a tampered desktop marks its copy approved', async () => {
    const [owner, editor] = await desks(['owner', 'editor']);
    expect(
      await editor!.connection.request({ kind: 'set_approval', required: true, bots: null }),
    ).toEqual({
      ok: false,
      code: 'forbidden',
      error: 'Only the team owner can change whether posts need approval.',
    });
    expect(
      await owner!.connection.request({ kind: 'set_approval', required: true, bots: null }),
    ).toMatchObject({ ok: true });
    const post = await shared(editor!, [owner!], due());
    await move(editor!, post, 'draft', 'in_review');
    // The tampered desktop writes "approved" into its own copy of the control document.
    const control = editor!.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS);
    await until(() => control.get(post)?.approval === 'in_review', 2000, 'the state');
    control.set(post, { ...control.get(post)!, approval: 'approved' });
    expect(await editor!.connection.request({ kind: 'claim', post, device: 'tampered' })).toEqual({
      ok: false,
      code: 'not_approved',
      error:
        "This post waits for approval: it is in review. The team needs an approver's yes before a post goes out.",
    });
    expect(await move(owner!, post, 'in_review', 'approved')).toMatchObject({
      ok: true,
      value: { state: 'approved', pastDue: expect.any(Number) },
    });
    expect(await editor!.connection.request({ kind: 'claim', post, device: 'd' })).toMatchObject({
      ok: true,
    });
  });

  it('asks approval only for the bots the owner named', async () => {
    const [owner] = await desks(['owner']);
    await owner!.connection.request({ kind: 'set_approval', required: true, bots: ['news'] });
    const free = await shared(owner!, [], { ...due(), botId: 'shop' });
    const guarded = await shared(owner!, [], { ...due(), botId: 'news' });
    expect(
      await owner!.connection.request({ kind: 'claim', post: free, device: 'd' }),
    ).toMatchObject({ ok: true });
    expect(
      await owner!.connection.request({ kind: 'claim', post: guarded, device: 'd' }),
    ).toMatchObject({ ok: false, code: 'not_approved' });
  });

  it('puts an approved post back in review when its text, media or time changes, an approver’s edit too', async () => {
    const [owner, approver, editor] = await desks(['owner', 'approver', 'editor']);
    await owner!.connection.request({ kind: 'set_approval', required: true, bots: null });
    const post = await shared(editor!, [owner!, approver!], due());
    const approve = async () => {
      await move(editor!, post, 'draft', 'in_review').then(() => undefined);
      const from = controlOf(editor!, post)?.approval ?? 'in_review';
      if (from !== 'approved') await move(approver!, post, 'in_review', 'approved');
      await until(() => controlOf(editor!, post)?.approval === 'approved', 2000, 'approved');
    };
    const record = (desk: Desk) => postsMap(desk.doc).get(post)!;
    const edits: [string, Desk, () => void][] = [
      ['text', editor!, () => (record(editor!).get('text') as Y.Text).insert(0, 'Big ')],
      ['media', editor!, () => record(editor!).set('mediaUrls', ['https://cdn.example/a.jpg'])],
      ['time', editor!, () => record(editor!).set('scheduledAt', Date.now() - 500)],
      ['approver typo', approver!, () => (record(approver!).get('text') as Y.Text).delete(0, 1)],
    ];
    for (const [what, desk, edit] of edits) {
      await move(editor!, post, 'in_review', 'draft'); // ignored when not in review
      await approve();
      edit();
      await until(
        () => controlOf(editor!, post)?.approval === 'in_review',
        2000,
        `the ${what} edit to reset the approval`,
      );
      expect(await desk.connection.request({ kind: 'claim', post, device: 'd' })).toMatchObject({
        ok: false,
        code: 'not_approved',
      });
    }
    // A change to a label is not what was approved: the approval holds.
    await approve();
    record(editor!).set('labels', ['summer']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(controlOf(editor!, post)?.approval).toBe('approved');
  });
});
