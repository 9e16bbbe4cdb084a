import { describe, expect, it } from 'vitest';
import { comparableText, findDuplicate } from '../../shared/duplicates';
import type { LocalPost } from '../../shared/domain';
import { localPost } from '../support/records';

const DAY = 86_400_000;
const base = Date.UTC(2026, 10, 23, 9);

function post(id: number, text: string, patch: Partial<LocalPost> = {}): LocalPost {
  return localPost({ id, text, scheduledAt: base, ...patch });
}

describe('comparableText', () => {
  it('ignores whitespace, letter case and links', () => {
    expect(comparableText('  Fresh   RYE today!\nhttps://bakery.example/rye?x=1 ')).toBe(
      'fresh rye today!',
    );
    expect(comparableText('Fresh rye today! www.bakery.example')).toBe('fresh rye today!');
  });
});

describe('findDuplicate', () => {
  const window = 3 * DAY;

  it('finds the same text of the same bot within the window, scheduled or published', () => {
    const scheduled = post(1, 'Fresh rye today! https://a.example', {
      scheduledAt: base + 2 * DAY,
    });
    const published = post(2, 'Cinnamon buns', {
      status: 'published',
      scheduledAt: null,
      publishedAt: base - DAY,
    });
    expect(
      findDuplicate({ botId: 'bot_1', text: 'fresh  rye today!', at: base }, [scheduled], window),
    ).toBe(scheduled);
    expect(
      findDuplicate({ botId: 'bot_1', text: 'CINNAMON buns', at: base }, [published], window),
    ).toBe(published);
  });

  it('counts a post exactly at the window’s edge, and not a minute beyond it', () => {
    const edge = post(1, 'Rye', { scheduledAt: base + window });
    expect(findDuplicate({ botId: 'bot_1', text: 'rye', at: base }, [edge], window)).toBe(edge);
    expect(
      findDuplicate({ botId: 'bot_1', text: 'rye', at: base - 60_000 }, [edge], window),
    ).toBeNull();
  });

  it('leaves alone other bots, drafts, failures, posts outside the window, and the post itself', () => {
    const posts = [
      post(1, 'Rye', { botId: 'bot_2' }),
      post(2, 'Rye', { status: 'draft' }),
      post(3, 'Rye', { status: 'failed' }),
      post(4, 'Rye', { scheduledAt: base + 4 * DAY }),
      post(5, 'Rye'),
    ];
    expect(
      findDuplicate({ id: 5, botId: 'bot_1', text: 'rye', at: base }, posts, window),
    ).toBeNull();
    expect(
      findDuplicate(
        { botId: 'bot_1', text: 'https://only.example/link', at: base },
        [post(6, 'https://other.example')],
        window,
      ),
    ).toBeNull();
  });
});
