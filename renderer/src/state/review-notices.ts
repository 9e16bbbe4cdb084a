// A post sent to me for review or back to me by someone else, told at once on whatever screen is
// open (browser): the web host's stand-in for the desktop's notification, which stays until the
// user closes it or opens the post.
import { reviewNoticeWords } from '../../../shared/team-status';
import type { Shell } from './shell.svelte';

export function watchReviewNotices(shell: Shell): () => void {
  return shell.onEvent((event) => {
    if (event.type !== 'review') return;
    const { title, body } = reviewNoticeWords(event, 'a post');
    shell.notices.show('info', `${title}: ${body}`, null, {
      label: 'Open the post',
      run: () => shell.openPost(event.postId),
    });
  });
}
