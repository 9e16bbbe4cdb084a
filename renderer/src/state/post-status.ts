// A post's status as the browser shows and judges it (pure): its mark, and which statuses never
// went out. The calendar, the editor and the duplicate question all read it. Whether a post can
// still change is the core's rule, shared: postLockReason in shared/domain.ts.
import type { PostStatus } from '../../../shared/domain';

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

/** Statuses a post can leave through queuePost (and be deleted from): shared/domain.ts owns them. */
export { NOT_GONE_OUT } from '../../../shared/domain';
