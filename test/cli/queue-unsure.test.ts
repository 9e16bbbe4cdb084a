// `queue resend` and `queue mark-published`: the user's word on an item a lookup could not settle.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { runCli } from '../support/cli';
import { call } from '../../main/core/operations';

/** A workspace with two posts whose lookups could not tell whether they went out. */
function unsureWorkspace() {
  const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-unsure-')), 'workspace.db');
  const pressroom = testWorkspace({ dbFile });
  const ids = ['Maybe once', 'Maybe twice'].map((text) => {
    const post = call(pressroom, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    const item = pressroom.store.outbox.openFor({ postId: post.id });
    // Claimed first: only an item in flight is settled as failed.
    pressroom.store.outbox.claim(item?.id ?? 0);
    pressroom.store.outbox.markFailed(item?.id ?? 0, 'Not sure whether it was published', [], true);
    return item?.id ?? 0;
  });
  pressroom.close();
  return { dbFile, ids };
}

describe('queue resend and mark-published', () => {
  it('send again only on the user’s confirmation, or take the post as published with its id', async () => {
    const { dbFile, ids } = unsureWorkspace();
    const [first, second] = ids;
    const unconfirmed = await runCli(['--db', dbFile, 'queue', 'resend', String(first)]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--confirm-not-sent/);
    const resent = await runCli([
      '--db',
      dbFile,
      '--json',
      'queue',
      'resend',
      String(first),
      '--confirm-not-sent',
    ]);
    expect(resent.code).toBe(0);
    expect(JSON.parse(resent.stdout)).toMatchObject({ state: 'queued', outcomeUnknown: false });
    const marked = await runCli([
      '--db',
      dbFile,
      '--json',
      'queue',
      'mark-published',
      String(second),
      '--remote-id',
      'post_77',
    ]);
    expect(marked.code).toBe(0);
    expect(JSON.parse(marked.stdout)).toMatchObject({ state: 'done', remoteId: 'post_77' });
    // Neither is asked twice: the resent one no longer has an unknown outcome.
    const again = await runCli(['--db', dbFile, 'queue', 'mark-published', String(first)]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/unknown outcome/);
  }, 60_000);
});
