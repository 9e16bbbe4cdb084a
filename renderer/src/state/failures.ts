// Failed and missed publishing, told at once on whatever screen is open (browser): a notice in
// plain words with what to do, which stays until the user closes it or opens what failed.
import { describeFailure, publishes } from '../../../shared/failures';
import type { OutboxItem } from '../../../shared/domain';
import type { Shell } from './shell.svelte';

function opener(shell: Shell, item: OutboxItem): { label: string; run: () => void } {
  const { postId } = item;
  return postId !== null
    ? { label: 'Open the post', run: () => shell.openPost(postId) }
    : { label: 'Open the Queue', run: () => shell.go('queue') };
}

export function watchFailures(shell: Shell): () => void {
  return shell.onEvent((event) => {
    if (event.type !== 'failed' && event.type !== 'missed') return;
    const { item } = event;
    if (!publishes(item.kind)) return;
    const what = item.kind === 'create_product' ? 'A product' : 'A post';
    const text =
      event.type === 'failed'
        ? `${what} could not be published. ${describeFailure({ kind: item.kind, reason: event.reason, fieldErrors: event.fieldErrors })}`
        : `${what} missed its time (the computer was asleep or off). Publish it now or give it a new time.`;
    shell.notices.show('error', text, null, opener(shell, item));
  });
}
