// Failures in plain words: what went wrong and what to do, never the API's raw text.
import { describe, expect, it } from 'vitest';
import { describeFailure, explainFailure } from '../../shared/failures';

describe('explainFailure', () => {
  it('tells a post whose look-up could not be sure as unknown, never as refused, with the two answers', () => {
    expect(
      explainFailure({
        kind: 'create_post',
        reason:
          'Not sure whether it was published: the list was not read to its end. Nothing was sent again.',
        fieldErrors: [],
      }),
    ).toEqual({
      what: 'Pressroom cannot tell whether this post reached the platform: its answer was lost, and the check afterwards could not be sure. Nothing was sent again.',
      todo: 'Look on the platform, then choose “I checked: it is not there, send it” or “It is there: mark published”.',
    });
  });

  it('names a bot that is gone, and says to pick another', () => {
    expect(
      explainFailure({
        kind: 'create_post',
        reason: 'POST /posts: 422 validation_failed: bot_id no bot with id "bot_4"',
        fieldErrors: [{ field: 'bot_id', message: 'no bot with id "bot_4"' }],
      }),
    ).toEqual({
      what: 'The bot this post was for no longer exists on the platform.',
      todo: 'Pick another bot and publish again.',
      needsEdit: true,
    });
  });

  it('names refused fields in words', () => {
    expect(
      describeFailure({
        kind: 'create_product',
        reason: 'POST /products: 422 validation_failed: price',
        fieldErrors: [{ field: 'price', message: 'must be positive' }],
      }),
    ).toBe(
      'The platform refused the price (must be positive). Correct it in the product, then publish again.',
    );
  });

  it('tells a missed post, a platform that never answered, and a thing that is gone apart', () => {
    const words = (reason: string) =>
      explainFailure({ kind: 'create_post', reason, fieldErrors: [] }).what;
    expect(words('Missed: found 40 min after its time')).toMatch(/not sent at its time/);
    expect(words('Gave up after 8 attempts: POST /posts: 503 unavailable')).toMatch(
      /did not answer/,
    );
    expect(words('POST /posts/9: 404 not_found: no such post')).toMatch(/no longer exists/);
    expect(words('POST /posts: 400 bad_request: nonsense')).toBe('The platform refused this post.');
    // Only what must be changed first is not worth a retry.
    const editFirst = (reason: string) =>
      explainFailure({ kind: 'create_post', reason, fieldErrors: [] }).needsEdit ?? false;
    expect(editFirst('Gave up after 8 attempts: POST /posts: 503 unavailable')).toBe(false);
    expect(editFirst('Missed: found 40 min after its time')).toBe(false);
    expect(editFirst('POST /posts: 413 too_large: body')).toBe(true);
    for (const reason of ['POST /posts: 400 bad_request: nonsense', 'Missed: x'])
      expect(describeFailure({ kind: 'create_post', reason, fieldErrors: [] })).not.toContain(
        'POST',
      );
  });
});
