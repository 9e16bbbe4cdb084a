// What can be done to a post wherever it is shown (browser): delete it (the notice offers Undo,
// which writes it again as it was) and move it to the drafts. The post editor's menu and the
// calendar's context menu both call these, under the same rules.
import { postLockReason } from '../../../shared/domain';
import { Temporal } from 'temporal-polyfill';
import type { CallResult } from '../../../shared/answers';
import type { LocalPost } from '../../../shared/domain';
import { NOT_GONE_OUT } from './post-status';
import type { Shell } from './shell.svelte';

/** A post that never went out, or is only scheduled, can be deleted. */
export function canDelete(post: LocalPost): boolean {
  return postLockReason(post) === null && [...NOT_GONE_OUT, 'scheduled'].includes(post.status);
}

/** A scheduled post of ours can leave the queue and stay a draft at its time. */
export function canMoveToDrafts(post: LocalPost): boolean {
  return postLockReason(post) === null && post.status === 'scheduled';
}

/** Deletes the post; once it is gone, a notice offers Undo for a while. */
export async function deletePost(
  shell: Shell,
  post: LocalPost,
): Promise<CallResult<{ removed: number }>> {
  const result = await shell.api.deletePost({ id: post.id });
  if (result.ok)
    shell.notices.show('success', 'Post deleted', 10_000, {
      label: 'Undo',
      run: () => void restorePost(shell, post),
    });
  return result;
}

/** Takes a scheduled post out of the queue, keeping it as a draft at its time. */
export async function moveToDrafts(shell: Shell, post: LocalPost): Promise<CallResult<LocalPost>> {
  const result = await shell.api.moveToDrafts({ id: post.id });
  if (result.ok) shell.notices.show('success', 'Moved to drafts: it will not go out');
  return result;
}

/**
 * Writes a deleted post again as it was: scheduled at its time when that is still ahead, else a
 * draft. The post it repeats is gone, so the duplicate guard has nothing to ask.
 */
export async function restorePost(shell: Shell, post: LocalPost): Promise<void> {
  const at = post.scheduledAt;
  const schedule = post.status === 'scheduled' && at !== null && at > Date.now();
  const result = await shell.api.addPost({
    text: post.text,
    mediaUrls: post.mediaUrls,
    mode: schedule ? 'schedule' : 'draft',
    allowDuplicate: true,
    ...(post.botId ? { botId: post.botId } : {}),
    ...(at !== null ? { at: Temporal.Instant.fromEpochMilliseconds(at).toString() } : {}),
    ...(post.zone ? { zone: post.zone } : {}),
  });
  if (result.ok) shell.notices.show('success', 'Post restored');
  else shell.notices.error(result.error.message, 'Could not restore the post');
}
