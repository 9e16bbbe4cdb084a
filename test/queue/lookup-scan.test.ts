// The lookup's list reading and matching on their own, over pages a test writes: newest first when
// the first page states its count, unsure whenever the end is not proven.
import { describe, expect, it } from 'vitest';
import type { Page } from '../../main/platform/client';
import type { PageRequest, Post } from '../../main/platform/normalize';
import { freshProgress, postMatcher, scanList } from '../../main/queue/lookup';

const post = (id: number, extra: Partial<Post> = {}): Post => ({
  id: `post_${id}`,
  bot_id: 'bot_1',
  text: `Older ${id}`,
  media_urls: [],
  status: 'published',
  scheduled_at: null,
  published_at: null,
  client_reference: null,
  created_at: null,
  ...extra,
});

/** A page-numbered list of `posts`, `perPage` a page, that records the pages asked for. */
function numbered(posts: Post[], perPage: number) {
  const asked: number[] = [];
  const fetchPage = (request: PageRequest): Promise<Page<Post>> => {
    const page = request.page ?? 1;
    asked.push(page);
    const pages = Math.ceil(posts.length / perPage);
    return Promise.resolve({
      items: posts.slice((page - 1) * perPage, page * perPage),
      rejected: [],
      page,
      perPage,
      total: posts.length,
      next: page < pages ? { kind: 'request', request: { page: page + 1 } } : { kind: 'last' },
    });
  };
  return { asked, fetchPage };
}

const wanted = (text: string) =>
  postMatcher({
    reference: 'pr-1',
    botId: 'bot_1',
    text,
    sinceMs: () => Date.parse('2026-11-27T10:00:00Z'),
    taken: () => false,
  });

describe('scanList', () => {
  it('reads page 1, then from the last page back, and stops at the match', async () => {
    const posts = Array.from({ length: 95 }, (_, i) => post(i));
    posts.push(post(95, { text: ' Ours\r\nagain ', created_at: '2026-11-27T10:00:01Z' }));
    const { asked, fetchPage } = numbered(posts, 10);
    const found = await scanList(fetchPage, wanted('Ours\nagain'), freshProgress());
    expect(found).toEqual({ kind: 'found', id: 'post_95' });
    expect(asked).toEqual([1, 10]);
  });

  it('takes an untimed post only when it is the one such post in the whole list', async () => {
    const one = numbered([post(1), post(2, { text: 'Ours' })], 10);
    expect(await scanList(one.fetchPage, wanted('Ours'), freshProgress())).toEqual({
      kind: 'found',
      id: 'post_2',
    });
    const two = numbered([post(1, { text: 'Ours' }), post(2, { text: 'Ours' })], 10);
    expect(await scanList(two.fetchPage, wanted('Ours'), freshProgress())).toMatchObject({
      kind: 'unsure',
    });
  });

  it('is absent only at the proven end, and resumes a read an error cut short', async () => {
    const { asked, fetchPage } = numbered(
      Array.from({ length: 30 }, (_, i) => post(i)),
      10,
    );
    let failOnce = true;
    const flaky = (request: PageRequest) => {
      if (request.page === 2 && failOnce) {
        failOnce = false;
        return Promise.reject(new Error('503'));
      }
      return fetchPage(request);
    };
    const progress = freshProgress();
    await expect(scanList(flaky, wanted('Ours'), progress)).rejects.toThrow('503');
    expect(await scanList(flaky, wanted('Ours'), progress)).toEqual({ kind: 'absent' });
    expect(asked).toEqual([1, 3, 2]);
  });

  it('is unsure when a page repeats what was read (the server ignores the page asked for)', async () => {
    const posts = Array.from({ length: 20 }, (_, i) => post(i));
    const first = numbered(posts, 10);
    const ignoring = (_: PageRequest) => first.fetchPage({ page: 1 });
    expect(await scanList(ignoring, wanted('Ours'), freshProgress())).toMatchObject({
      kind: 'unsure',
      why: expect.stringMatching(/not read to its end/),
    });
  });
});
