// Exactly one publisher per team post, through each desktop's own outbox and publisher: a desktop
// that cannot reach the team server sends nothing; a post one desktop published is not sent by
// another; a holder cut off by a partition is refused, and the next holder finds its post by
// reference instead of sending a second one.
import { afterEach, describe, expect, it } from 'vitest';
import { approvalWaitSentence, teamIdempotencyKey } from '../../shared/team';
import type { ControlPostEntry } from '../../shared/team-doc';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { TeamStore } from '../../main/store/team';
import { OFFLINE_REASON } from '../../main/team-client/publish-gate';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import { duePost, postsOnPlatform, queuedOn, teamDesktop } from '../support/team-desktop';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
const pressrooms: Workspace[] = [];
afterEach(async () => {
  for (const pressroom of pressrooms.splice(0)) pressroom.close();
  await team?.close();
  team = undefined;
});

function desktop(platform: TestPlatform, token: string): Workspace {
  const pressroom = teamDesktop(team!, platform, token);
  pressrooms.push(pressroom);
  return pressroom;
}

describe('team posts and the outbox', () => {
  it('sends no team post while the team server cannot be reached, and says why', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const a = desktop(platform, team.ownerToken);
    await a.team!.connection.whenSynced();
    const id = duePost(a, 'Offline team post');
    await team.server.close();
    await until(() => a.team!.status().state === 'offline', 3000);
    await a.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Offline team post')).toBe(0);
    const item = a.store.outbox.latestForPost(id)!;
    expect(item.state).toBe('retrying');
    expect(item.lastError).toBe(OFFLINE_REASON);
  });

  it('publishes a team post now when asked, with no time or before its time, once', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const a = desktop(platform, team.ownerToken);
    await a.team!.connection.whenSynced();
    const untimed = await call(a, 'addPost', {
      text: 'Now, no time',
      mode: 'draft',
      botId: 'bot_1',
    });
    const later = await call(a, 'addPost', {
      text: 'Now, not tomorrow',
      mode: 'draft',
      botId: 'bot_1',
      at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 16),
      zone: 'UTC',
    });
    for (const { id } of [untimed, later]) call(a, 'queuePost', { id, mode: 'publish_now' });
    a.team!.pushLocalChanges();
    await until(() => a.team!.connection.unsyncedChanges === 0, 3000, 'the queued posts to sync');
    await a.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Now, no time')).toBe(1);
    expect(await postsOnPlatform(platform, 'Now, not tomorrow')).toBe(1);
    for (const { id } of [untimed, later])
      expect(a.store.outbox.latestForPost(id)!.state).toBe('done');
  });

  it('publishes a scheduled team post now through the lease once approved, and refuses it before', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const a = desktop(platform, team.ownerToken);
    await a.team!.connection.whenSynced();
    await a.team!.connection.request({ kind: 'set_approval', required: true, bots: null });
    const post = call(a, 'addPost', {
      text: 'Now, once approved',
      botId: 'bot_1',
      at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 16),
      zone: 'UTC',
    });
    a.team!.pushLocalChanges();
    const waits = () => a.team!.approvalWait(post.id, 'bot_1');
    await until(
      () => a.team!.connection.unsyncedChanges === 0 && waits() !== undefined,
      3000,
      'the post to sync and the setting to come back',
    );
    expect(() => call(a, 'queuePost', { id: post.id, mode: 'publish_now' })).toThrow(
      approvalWaitSentence('draft'),
    );
    await call(a, 'submitPost', { id: post.id });
    await call(a, 'approvePost', { id: post.id });
    await until(() => waits() === undefined, 3000, 'the approval to reach the desktop');
    call(a, 'queuePost', { id: post.id, mode: 'publish_now' });
    await a.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Now, once approved')).toBe(1);
    expect(a.store.outbox.list().map((item) => [item.postId, item.state])).toEqual([
      [post.id, 'done'],
    ]);
  });

  it('publishes a team post once: the desktop that finds it published does not send it again', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const a = desktop(platform, team.ownerToken);
    const b = desktop(platform, team.invite('editor'));
    await Promise.all([a.team!.connection.whenSynced(), b.team!.connection.whenSynced()]);
    duePost(a, 'Once only');
    const onB = await queuedOn(b, 'Once only');
    await a.queue.publishDue();
    const uuid = new TeamStore(b.store.db, Date.now).uuidOfPost(onB)!;
    const result = () =>
      (b.team!.connection.control.getMap('posts').get(uuid) as ControlPostEntry | undefined)
        ?.result;
    await until(() => result() !== undefined && result() !== null, 2000, 'the result to reach B');
    await b.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Once only')).toBe(1);
    expect(b.store.outbox.latestForPost(onB)!.state).toBe('done');
  });

  it('refuses a partitioned holder’s late published, and the next holder finds its post instead of sending another', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam({ leaseMs: 300 });
    const a = desktop(platform, team.ownerToken);
    const b = desktop(platform, team.invite('editor'));
    await Promise.all([a.team!.connection.whenSynced(), b.team!.connection.whenSynced()]);
    const onA = duePost(a, 'Partitioned');
    const onB = await queuedOn(b, 'Partitioned');
    const uuid = new TeamStore(a.store.db, Date.now).uuidOfPost(onA)!;

    // A claims and sends, then is cut off before it can report published.
    const claim = await a.team!.connection.request({
      kind: 'claim',
      post: uuid,
      device: a.team!.device,
    });
    expect(claim.ok).toBe(true);
    const key = teamIdempotencyKey(uuid, 1);
    await platform.client.createPost(
      { bot_id: 'bot_1', text: 'Partitioned', media_urls: [], client_reference: key },
      { idempotencyKey: key },
    );
    await new Promise((resolve) => setTimeout(resolve, 350)); // A's lease runs out

    await b.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Partitioned')).toBe(1);
    expect(b.store.outbox.latestForPost(onB)!.state).toBe('done');
    const late = await a.team!.connection.request({
      kind: 'published',
      post: uuid,
      epoch: 1,
      remoteId: 'p_late',
    });
    expect(late).toMatchObject({ ok: false, code: 'stale_epoch' });
  });
});

describe('a holder that dies right after its POST, on a platform that keeps no reference', () => {
  it('lets the next holder find the post minutes later by its text, not send it again', async () => {
    // Spec-literal: no client_reference, no Idempotency-Key kept; only bot, text and time can
    // match. `later` moves the platform's and the team server's clocks together: minutes pass
    // between A's POST and B's first attempt, as when A was killed and its lease ran out.
    let later = 0;
    const now = () => Date.now() + later;
    const platform = await startTestPlatform({ seed: 'demo', quirks: { specLiteral: true }, now });
    team = await startTestTeam({ now });
    const b = desktop(platform, team.ownerToken);
    const a = team.connect(team.invite('editor'));
    await Promise.all([b.team!.connection.whenSynced(), a.whenSynced()]);
    const onB = duePost(b, 'Sent by a desktop then killed');
    const uuid = new TeamStore(b.store.db, Date.now).uuidOfPost(onB)!;
    // A's claim goes on its own connection: B's post must be on the server first.
    await until(() => b.team!.connection.unsyncedChanges === 0, 3000, 'the post to sync');

    const claim = await a.request({ kind: 'claim', post: uuid, device: 'desktop-a' });
    expect(claim).toMatchObject({ ok: true, value: { epoch: 1 } });
    const key = teamIdempotencyKey(uuid, 1);
    await platform.client.createPost(
      {
        bot_id: 'bot_1',
        text: 'Sent by a desktop then killed',
        media_urls: [],
        client_reference: key,
      },
      { idempotencyKey: key },
    );
    a.close(); // killed before it could report published
    later = 10 * 60_000;

    await b.queue.publishDue();
    expect(await postsOnPlatform(platform, 'Sent by a desktop then killed')).toBe(1);
    expect(b.store.outbox.latestForPost(onB)!.state).toBe('done');
  });
});
