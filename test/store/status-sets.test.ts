// One rule in one place (issue #29): "has this post gone out?" is shared/domain.ts's GONE_OUT and
// NOT_GONE_OUT, and the store's SQL says the same for every status; the settings' bounds are
// LIMITS, in the contract and in what the settings service reads back alike.
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { WorkspaceStore } from '../../main/store';
import { inSet } from '../../main/store/statements';
import { operations } from '../../shared/contract';
import { GONE_OUT, NOT_GONE_OUT, POST_STATUSES } from '../../shared/domain';
import type { PostStatus } from '../../shared/domain';
import { LIMITS } from '../../shared/limits';
import { NOT_GONE_OUT as RENDERER_NOT_GONE_OUT } from '../../renderer/src/state/post-status';

function postWithStatus(store: WorkspaceStore, status: PostStatus): number {
  const post = store.posts.create({
    botId: 'bot_1',
    text: `a ${status} post`,
    mediaUrls: [],
    scheduledAt: null,
    zone: 'UTC',
  });
  store.db.prepare('UPDATE posts SET status = ? WHERE id = ?').run(status, post.id);
  return post.id;
}

describe('status sets', () => {
  it('split every post status into gone out, not gone out, or scheduled', () => {
    expect([...GONE_OUT, ...NOT_GONE_OUT, 'scheduled'].sort()).toEqual([...POST_STATUSES].sort());
    expect(RENDERER_NOT_GONE_OUT).toBe(NOT_GONE_OUT);
  });

  it('the store deletes exactly the posts that have not gone out', () => {
    const store = WorkspaceStore.open(':memory:');
    for (const status of POST_STATUSES) {
      const id = postWithStatus(store, status);
      expect(store.posts.remove(id), status).toBe(NOT_GONE_OUT.includes(status));
    }
    store.close();
  });

  it('builds SQL only from constant names', () => {
    expect(inSet('status', GONE_OUT)).toBe("status IN ('sending', 'published', 'handed_off')");
    expect(() => inSet('status', ["x') OR 1=1 --"])).toThrow(/constant set/);
    expect(() => inSet('status', [])).toThrow(/constant set/);
  });
});

describe('settings bounds', () => {
  it('are LIMITS in the contract and in what the service reads back', () => {
    const save = operations.saveSettings;
    expect(save.safeParse({ duplicateWindowDays: LIMITS.duplicateWindowDays }).success).toBe(true);
    expect(save.safeParse({ duplicateWindowDays: LIMITS.duplicateWindowDays + 1 }).success).toBe(
      false,
    );
    expect(save.safeParse({ graceMinutes: LIMITS.graceMinutes }).success).toBe(true);
    expect(save.safeParse({ graceMinutes: LIMITS.graceMinutes + 1 }).success).toBe(false);
    expect(save.safeParse({ nightMode: true }).success).toBe(false);
    expect(
      operations.updatePost.safeParse({ id: 1, text: 'x'.repeat(LIMITS.postText + 1) }).success,
    ).toBe(false);

    const pressroom = testWorkspace();
    pressroom.store.settings.set('duplicate_window_days', LIMITS.duplicateWindowDays);
    pressroom.store.settings.set('grace_minutes', LIMITS.graceMinutes + 1);
    const settings = pressroom.settings.getSettings();
    expect(settings.duplicateWindowDays).toBe(LIMITS.duplicateWindowDays);
    // A stored value past the bound is read as the default, as the contract would refuse it.
    expect(settings.graceMinutes).toBe(30);
  });
});
