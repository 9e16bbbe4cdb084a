// Failures in plain words: what went wrong and what to do, never the API's raw text.
import { describe, expect, it } from 'vitest';
import { describeFailure, explainFailure } from '../../shared/failures';

describe('explainFailure', () => {
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
    for (const reason of ['POST /posts: 400 bad_request: nonsense', 'Missed: x'])
      expect(describeFailure({ kind: 'create_post', reason, fieldErrors: [] })).not.toContain(
        'POST',
      );
  });
});
