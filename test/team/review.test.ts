// Approvals from the desktops, through the one door (call): write → submit → sent back with a
// comment → edit → submit → approve, the Review lists of each person, the log as CSV; transitions
// asked offline wait to sync and are applied or refused on reconnect (a revoked member's too); the
// queue says why an unapproved post waits.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalState } from '../../shared/team';
import { CONTROL_AUDIT } from '../../shared/team-doc';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { openTeamDb } from '../../main/team/db';
import { TeamMembers } from '../../main/team/members';
import { startTeamServer } from '../../main/team/server';
import type { RunningTeamServer } from '../../main/team/server';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';
import { duePost, teamDesktop } from '../support/team-desktop';

let team: TestTeam | undefined;
let restarted: RunningTeamServer | undefined;
const desktops: Workspace[] = [];
afterEach(async () => {
  for (const desktop of desktops.splice(0)) desktop.close();
  await restarted?.close();
  restarted = undefined;
  await team?.close();
  team = undefined;
});

async function desktop(platform: TestPlatform, token: string): Promise<Workspace> {
  const made = teamDesktop(team!, platform, token);
  desktops.push(made);
  await made.team!.connection.whenSynced();
  return made;
}

/** A draft written on `author`, and its local id on each of `others` once mirrored there. */
async function draftOn(author: Workspace, text: string, others: Workspace[]): Promise<number[]> {
  const post = await call(author, 'addPost', { text, mode: 'draft', botId: 'bot_1' });
  const ids = [post.id];
  for (const other of others) ids.push(await idOn(other, text));
  return ids;
}

/** The local id of the post with `text` on `desk`, once the team has mirrored it there. */
async function idOn(desk: Workspace, text: string): Promise<number> {
  const find = () => desk.store.posts.list({}).find((row) => row.text === text);
  await until(() => find() !== undefined, 3000, text);
  return find()!.id;
}

function stateOn(desk: Workspace, id: number): ApprovalState | undefined {
  return desk.team!.review.entry(desk.team!.postUuid(id)!)?.approval;
}

async function seen(desk: Workspace, id: number, state: ApprovalState): Promise<void> {
  await until(() => stateOn(desk, id) === state, 3000, `${state} on the desktop`);
}

async function restart(): Promise<void> {
  restarted = await startTeamServer({ port: team!.server.port, dataDir: team!.dataDir });
}

describe('approvals through the desktops', () => {
  it('walks write → submit → changes requested with a comment → submit → approve, and lists what waits for whom', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const approver = await desktop(platform, team.invite('approver', 'Bea'));
    const [onA, onB] = (await draftOn(author, 'Autumn sale: 20% off', [approver])) as [
      number,
      number,
    ];

    expect(await call(author, 'submitPost', { id: onA })).toMatchObject({
      state: 'in_review',
      waitingToSync: false,
      message: 'Sent for review.',
    });
    await seen(approver, onB, 'in_review');
    const forBea = await call(approver, 'listReview', {});
    expect(forBea.waitsForMe.map((item) => item.postId)).toEqual([onB]);
    expect((await call(author, 'listReview', {})).waitsForMe).toEqual([]);

    await expect(call(author, 'approvePost', { id: onA })).rejects.toThrow(
      'Only an approver can approve this post; Settings → Team lists who can.',
    );
    expect(() => call(approver, 'requestChanges', { id: onB, comment: ' ' })).toThrow(
      'comment: cannot be empty',
    );
    await call(approver, 'requestChanges', { id: onB, comment: 'Say until when.' });
    await seen(author, onA, 'changes_requested');
    const forAna = await call(author, 'listReview', {});
    expect(forAna.sentBackToMe).toEqual([
      expect.objectContaining({ postId: onA, text: 'Autumn sale: 20% off' }),
    ]);

    await call(author, 'updatePost', { id: onA, text: 'Autumn sale: 20% off until Sunday' });
    await call(author, 'commentOnPost', { id: onA, text: 'Added the day.' });
    await call(author, 'submitPost', { id: onA });
    await seen(approver, onB, 'in_review');
    expect(await call(approver, 'approvePost', { id: onB })).toMatchObject({
      state: 'approved',
      message: 'Approved.',
    });
    await seen(author, onA, 'approved');

    const approval = await call(author, 'getPostApproval', { id: onA });
    expect(approval.comments.map((comment) => [comment.name, comment.text])).toEqual([
      ['Bea', 'Say until when.'],
      ['Ana', 'Added the day.'],
    ]);
    expect(approval.history.map((entry) => `${entry.name} ${entry.action}`)).toEqual([
      'Ana draft→in_review',
      'Bea in_review→changes_requested',
      'Ana comment',
      'Ana changes_requested→in_review',
      'Bea in_review→approved',
    ]);
    const approved = await call(approver, 'listReview', { state: 'approved' });
    expect(approved.inState.map((item) => item.postId)).toEqual([onB]);
    const log = await call(approver, 'teamLog', { format: 'csv' });
    expect(log.csv!.split('\r\n')[0]).toBe('at,member,name,action,post_id,post_uuid,detail');
    expect(log.csv).toContain(`,Bea,in_review→approved,${onB},`);
    const anasOnly = await call(approver, 'teamLog', { member: approval.history[0]!.member });
    expect(new Set(anasOnly.entries.map((entry) => entry.name))).toEqual(new Set(['Ana']));
  });

  it('gives the calendar each drawn post’s approval state out of draft, on every desktop', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const approver = await desktop(platform, team.invite('approver', 'Bea'));
    const [sentA, sentB] = (await draftOn(author, 'Winter menu', [approver])) as [number, number];
    const [keptA] = (await draftOn(author, 'Still a draft', [approver])) as [number, number];
    await call(author, 'submitPost', { id: sentA });
    await seen(approver, sentB, 'in_review');
    const range = { from: 0, to: Date.UTC(2100, 0), zone: 'UTC' };
    const onAuthor = await call(author, 'getCalendar', range);
    expect(onAuthor.drafts.map((post) => post.id)).toEqual(expect.arrayContaining([sentA, keptA]));
    expect(onAuthor.approvals).toEqual({ [sentA]: 'in_review' });
    expect((await call(approver, 'getCalendar', range)).approvals).toEqual({
      [sentB]: 'in_review',
    });
  });

  it('keeps a transition asked offline waiting to sync, then applies or refuses it on reconnect', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const [first] = (await draftOn(author, 'Offline one', [])) as [number];
    const [second] = (await draftOn(author, 'Offline two', [])) as [number];
    await until(() => author.team!.connection.unsyncedChanges === 0, 3000, 'the drafts to sync');
    await call(author, 'listReview', {}); // who this desktop is, learned while online
    await team.server.close();
    await until(() => author.team!.status().state === 'offline', 3000, 'offline');

    expect(await call(author, 'submitPost', { id: first })).toMatchObject({
      waitingToSync: true,
      message: expect.stringMatching(/^Waiting to sync/),
    });
    // An editor may not approve: accepted here while offline, refused by the server later.
    await call(author, 'approvePost', { id: second });
    expect((await call(author, 'listReview', {})).pending).toEqual([
      expect.objectContaining({ postId: first, to: 'in_review', state: 'waiting' }),
      expect.objectContaining({ postId: second, to: 'approved', state: 'waiting' }),
    ]);

    await restart();
    await until(() => author.team!.pending.waiting().length === 0, 10_000, 'the sync');
    await seen(author, first, 'in_review');
    expect(author.team!.pending.all()).toEqual([
      expect.objectContaining({
        to: 'approved',
        state: 'refused',
        reason: 'A draft cannot become approved.',
      }),
    ]);
  });

  it('reads each state the server writes after the team server restarts, not what an earlier server process wrote', async () => {
    // Each server process writes its control document afresh; a desktop that kept the earlier
    // process's entries held them beside the new ones, and Yjs kept one by client id: half the
    // time the old state stayed. Several restarts make that chance near certain.
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const approver = await desktop(platform, team.invite('approver', 'Bea'));
    const [onA, onB] = (await draftOn(author, 'Across restarts', [approver])) as [number, number];
    for (let round = 0; round < 4; round++) {
      await (restarted ?? team.server).close();
      await until(() => author.team!.status().state === 'offline', 3000, 'offline');
      await restart();
      for (const desk of [author, approver]) await desk.team!.connection.whenSynced();
      await call(author, 'submitPost', { id: onA });
      await seen(approver, onB, 'in_review');
      await call(approver, 'requestChanges', { id: onB, comment: `Round ${round}` });
      await seen(author, onA, 'changes_requested');
    }
    // The log the desktop holds has each entry once, not again for each server process.
    const seqs = author
      .team!.connection.control.getArray<{ seq: number }>(CONTROL_AUDIT)
      .toArray()
      .map((entry) => entry.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.length).toBeGreaterThanOrEqual(8);
  });

  it('judges a move asked offline on a post written offline once the post has reached the server', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    await team.server.close();
    await until(() => author.team!.status().state === 'offline', 3000, 'offline');
    const [id] = (await draftOn(author, 'Written on the train', [])) as [number];
    expect(await call(author, 'submitPost', { id })).toMatchObject({ waitingToSync: true });

    await restart();
    await until(() => author.team!.pending.waiting().length === 0, 10_000, 'the move to sync');
    // The post written offline is there to be judged: the move is applied, nothing refused.
    expect((await call(author, 'listReview', {})).pending).toEqual([]);
    await seen(author, id, 'in_review');
  });

  it('dismisses a refused step once its reason was read, never one still waiting to sync', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const [id] = (await draftOn(author, 'Asked offline', [])) as [number];
    await until(() => author.team!.connection.unsyncedChanges === 0, 3000, 'the draft to sync');
    await call(author, 'listReview', {});
    await team.server.close();
    await until(() => author.team!.status().state === 'offline', 3000, 'offline');
    await call(author, 'approvePost', { id }); // an editor may not: refused on reconnect

    const [waiting] = (await call(author, 'listReview', {})).pending;
    expect(() => call(author, 'dismissReviewStep', { id: waiting!.id })).toThrow(
      'This step still waits to sync: it can be dismissed once the team server has refused it.',
    );
    await restart();
    await until(() => author.team!.pending.waiting().length === 0, 10_000, 'the refusal');
    expect((await call(author, 'listReview', {})).pending).toEqual([
      expect.objectContaining({
        id: waiting!.id,
        postId: id,
        state: 'refused',
        reason: 'A draft cannot become approved.',
      }),
    ]);
    expect(call(author, 'dismissReviewStep', { id: waiting!.id })).toEqual({ id: waiting!.id });
    expect((await call(author, 'listReview', {})).pending).toEqual([]);
    expect(author.team!.pending.all()).toEqual([]);
    expect(() => call(author, 'dismissReviewStep', { id: waiting!.id })).toThrow(
      'This step is no longer here: it was applied or dismissed already.',
    );
  });

  it('refuses a revoked member’s queued transitions on reconnect and shows why', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const token = team.invite('editor', 'Cy');
    const author = await desktop(platform, token);
    const [id] = (await draftOn(author, 'Before the revocation', [])) as [number];
    await until(() => author.team!.connection.unsyncedChanges === 0, 3000, 'the draft to sync');
    await team.server.close();
    await until(() => author.team!.status().state === 'offline', 3000, 'offline');
    await call(author, 'submitPost', { id });

    // Revoked while this desktop was away.
    const db = openTeamDb(team.dataDir);
    const members = new TeamMembers(db);
    const cy = members.list(team.teamId).find((member) => member.name === 'Cy')!;
    members.revoke(team.teamId, cy.id);
    db.close();
    await restart();
    await until(() => author.team!.pending.waiting().length === 0, 10_000, 'the refusal');
    expect(author.team!.pending.all()).toEqual([
      expect.objectContaining({
        state: 'refused',
        reason:
          'The team server refused this desktop: This member token is unknown or was revoked.',
      }),
    ]);
  });

  it('shows in the queue why an unapproved post waits, and says when an approval comes after its time', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const owner = team.connect(team.ownerToken);
    await owner.whenSynced();
    await owner.request({ kind: 'set_approval', required: true, bots: null });
    const author = await desktop(platform, team.invite('editor', 'Ana'));
    const approver = await desktop(platform, team.invite('approver', 'Bea'));
    const scheduledAt = Date.now() - 60_000;
    const post = duePost(author, 'Due but unapproved', scheduledAt);
    await call(author, 'submitPost', { id: post });
    await author.queue.publishDue();
    expect(author.store.outbox.latestForPost(post)!.lastError).toBe(
      "This post waits for approval: it is in review. The team needs an approver's yes before a post goes out.",
    );
    const onB = await idOn(approver, 'Due but unapproved');
    await seen(approver, onB, 'in_review');
    const step = await call(approver, 'approvePost', { id: onB });
    expect(step.pastDue).toBe(scheduledAt);
    expect(step.message).toMatch(
      /^Approved, but its time \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) has passed: publish it now or pick a new time\.$/,
    );
  });
});
