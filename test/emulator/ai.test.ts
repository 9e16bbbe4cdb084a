// The reference server's AI providers: deterministic replies, cost, selection and failover.
import { describe, expect, it } from 'vitest';
import { AiRouter, countTokens, generateReply, promptTokens } from '../../main/emulator/ai';
import type { AiChatInput } from '../../main/emulator/ai';
import { seededRandom } from '../../main/emulator/random';

const ask = (content: string, maxTokens = 256, provider = 'auto'): AiChatInput => ({
  messages: [{ role: 'user', content }],
  max_tokens: maxTokens,
  provider,
});

function router(now = () => 0) {
  const ai = new AiRouter({ now, random: seededRandom(1), timeScale: 1 });
  // Healthy and instant unless a test says otherwise, so outcomes do not depend on the dice.
  for (const name of ai.providerNames()) ai.configure(name, { failureRate: 0, latencyMs: 0 });
  return ai;
}

describe('generateReply', () => {
  it('is deterministic and answers the task asked for', () => {
    const prompt = [
      { role: 'user' as const, content: 'Suggest hashtags for our sourdough bread launch' },
    ];
    expect(generateReply(prompt, 100)).toEqual(generateReply(prompt, 100));
    expect(generateReply(prompt, 100).content).toMatch(/^#sourdough #bread #launch$/);
    const posts = generateReply(
      [{ role: 'user', content: 'Draft 5 posts about our winter opening hours' }],
      1000,
    ).content.split('\n');
    expect(posts).toHaveLength(5);
    expect(posts.map((line) => line.slice(0, 3))).toEqual(['1. ', '2. ', '3. ', '4. ', '5. ']);
    expect(new Set(posts.map((line) => line.slice(3))).size).toBe(5);
    const short = generateReply(
      [
        {
          role: 'user',
          content:
            'Shorten: "We are really very happy to announce that our bakery opens a second shop downtown next month."',
        },
      ],
      100,
    );
    expect(short.content.length).toBeLessThan(80);
    const rephrased = generateReply(
      [{ role: 'user', content: 'Rephrase: "Our new bread is great. Buy it today."' }],
      100,
    );
    expect(rephrased.content).toBe('Grab it this very day. Our fresh bread is wonderful.');
  });

  it('cuts at max_tokens and says so', () => {
    const reply = generateReply([{ role: 'user', content: 'Draft 20 posts about bread' }], 30);
    expect(reply.finishReason).toBe('length');
    expect(reply.completionTokens).toBeLessThanOrEqual(30);
    expect(reply.completionTokens).toBe(countTokens(reply.content));
  });

  it('counts prompt tokens per message', () => {
    expect(
      promptTokens([
        { role: 'user', content: 'abcdefgh' },
        { role: 'system', content: 'a' },
      ]),
    ).toBe(2 + 4 + 1 + 4);
  });
});

describe('AiRouter', () => {
  it('picks the cheapest provider that allows max_tokens, and prices the answer', async () => {
    const ai = router();
    const cheap = await ai.chat(ask('Draft a post about rye'), 'chat_1');
    expect(cheap.ok && [cheap.response.provider, cheap.response.model]).toEqual([
      'lark',
      'lark-mini-1',
    ]);
    const total = cheap.ok ? cheap.response.usage.total_tokens : 0;
    expect(cheap.ok && cheap.response.cost_usd).toBe(
      (Math.round((total * 1000) / 1000) / 1e6).toFixed(6),
    );
    const long = await ai.chat(ask('Draft a post about rye', 1000), 'chat_2');
    expect(long.ok && long.response.provider).toBe('heron');
    const longest = await ai.chat(ask('Draft a post about rye', 4000), 'chat_3');
    expect(longest.ok && longest.response.provider).toBe('owl');
  });

  it('fails over, keeps a failed provider out while it cools down, then tries it again', async () => {
    let now = 0;
    const ai = router(() => now);
    ai.configure('lark', { failureRate: 1 });
    const first = await ai.chat(ask('hello'), 'a');
    expect(first.ok && first.response.attempts.map((a) => `${a.provider}:${a.outcome}`)).toEqual([
      'lark:failed',
      'heron:ok',
    ]);
    expect(ai.status().find((p) => p.name === 'lark')?.healthy).toBe(false);
    // Still failing and cooling down: tried last, after a healthy provider answered.
    now = 10;
    const second = await ai.chat(ask('hello'), 'b');
    expect(second.ok && second.response.attempts.map((a) => a.provider)).toEqual(['heron']);
    now = 40_000;
    ai.configure('lark', { failureRate: 0 });
    const third = await ai.chat(ask('hello'), 'c');
    expect(third.ok && third.response.provider).toBe('lark');
  });

  it('does not fail over from a named provider, and refuses what no provider allows', async () => {
    const ai = router();
    ai.configure('owl', { failureRate: 1 });
    const named = await ai.chat(ask('hello', 100, 'owl'), 'a');
    expect(named).toMatchObject({ ok: false, status: 503, code: 'ai_unavailable' });
    expect(await ai.chat(ask('hello', 100, 'eagle'), 'b')).toMatchObject({
      ok: false,
      status: 422,
      field: 'provider',
    });
    expect(await ai.chat(ask('hello', 1000, 'lark'), 'c')).toMatchObject({
      ok: false,
      status: 422,
      field: 'max_tokens',
    });
    expect(await ai.chat(ask('hello', 5000), 'd')).toMatchObject({
      ok: false,
      status: 422,
      message: 'must be at most 4096',
    });
  });

  it('answers 503 with every attempt when all fail', async () => {
    const ai = router();
    for (const name of ai.providerNames()) ai.configure(name, { failureRate: 1 });
    const outcome = await ai.chat(ask('hello'), 'a');
    expect(outcome.ok).toBe(false);
    expect(
      !outcome.ok && outcome.status === 503 && outcome.attempts.map((a) => a.provider),
    ).toEqual(['lark', 'heron', 'owl']);
  });
});
