// A post's status as the browser shows and judges it (pure): its mark, whether the post can
// still change, and which statuses never went out. The calendar, the editor and the duplicate
// question all read it.
import type { LocalPost, PostStatus } from '../../../shared/domain';

/** Each status as text and an icon, so it never rests on colour alone. */
export const STATUS_MARKS: Record<PostStatus, { label: string; icon: string }> = {
  draft: { label: 'Draft', icon: '✎' },
  scheduled: { label: 'Scheduled', icon: '◷' },
  sending: { label: 'Sending', icon: '⇡' },
  published: { label: 'Published', icon: '✓' },
  failed: { label: 'Failed', icon: '⚠' },
  missed: { label: 'Missed', icon: '⌛' },
  handed_off: { label: 'Handed off', icon: '↪' },
};

/**
 * Why a post cannot be changed any more, or null while it can. It mirrors the core's rule (and
 * wording) so the calendar and editor can say so before a round trip; the core still decides.
 */
export function lockReason(post: LocalPost): string | null {
  if (post.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
  if (post.status === 'published')
    return 'It is published; API v1 has no way to change a published post';
  if (post.status === 'handed_off')
    return 'It was handed off: the platform publishes it, and API v1 cannot change it';
  if (post.status === 'sending') return 'It is being sent right now';
  return null;
}

/** Statuses a post can leave through queuePost (and be deleted from): it never went out. */
export const NOT_GONE_OUT: readonly PostStatus[] = ['draft', 'failed', 'missed'];
