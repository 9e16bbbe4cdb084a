import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  describeIssues,
  httpUrl,
  instantWithOffset,
  summarizeIssues,
  text,
} from '../../shared/validation';
import { isHttpUrl } from '../../shared/url';

describe('validation messages', () => {
  const schema = z.strictObject({
    name: text(1, 5),
    urls: z.array(httpUrl),
    at: instantWithOffset,
    count: z.number(),
  });

  it('names every field with a plain sentence', () => {
    const result = schema.safeParse({
      name: 'toolong',
      urls: ['https://ok.example', 'javascript:alert(1)'],
      count: 'x',
      extra: 1,
    });
    expect(result.success).toBe(false);
    const issues = describeIssues(result.error?.issues ?? []);
    expect(issues).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'must be at most 5 characters' },
        { field: 'urls[1]', message: 'must be an absolute http or https URL' },
        { field: 'at', message: 'is required' },
        { field: 'count', message: 'must be a number' },
        { field: 'extra', message: 'is not a known field' },
      ]),
    );
    expect(
      summarizeIssues([
        { field: 'a', message: 'b' },
        { field: '', message: 'c' },
      ]),
    ).toBe('a: b; c');
  });

  it('reads instants only with an offset', () => {
    expect(instantWithOffset.parse('2026-03-29T01:30:00+01:00')).toBe(Date.UTC(2026, 2, 29, 0, 30));
    expect(instantWithOffset.safeParse('2026-03-29T01:30:00').success).toBe(false);
    expect(instantWithOffset.safeParse('2026-02-30T01:30:00Z').success).toBe(false);
  });
});

describe('isHttpUrl', () => {
  it('reads hosts with accented letters the same however often it is called', () => {
    // Node 20's URL.canParse refused these once optimised, after some thousands of calls.
    const answers = new Set<boolean>();
    for (let call = 0; call < 50_000; call++) answers.add(isHttpUrl('https://bücher.de/cover.jpg'));
    expect([...answers]).toEqual([true]);
    expect(isHttpUrl('ftp://bücher.de/cover.jpg')).toBe(false);
  });
});
