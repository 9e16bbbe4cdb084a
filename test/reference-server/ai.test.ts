// The reference server's AI providers: deterministic replies, token counts, cost, selection,
// failover and the health cool-down.
import { describe, expect, it } from 'vitest';
import { AiRouter, DEFAULT_AI_PROVIDERS } from '../../main/reference-server/ai';
import type { AiChatInput, AiChatOutcome } from '../../main/reference-server/ai';
import { countTokens, generateReply, promptTokens } from '../../main/reference-server/ai-replies';
import type { AiChatResponse, ChatMessage } from '../../main/platform/wire';
import { seededRandom } from '../../main/reference-server/random';

const user = (content: string): ChatMessage[] => [{ role: 'user', content }];
const ask = (content: string, maxTokens = 256, provider = 'auto'): AiChatInput => ({
  messages: user(content),
  max_tokens: maxTokens,
  provider,
});

function router(now = () => 0, timeScale = 1) {
  const ai = new AiRouter({ now, random: seededRandom(1), timeScale });
  // Healthy and instant unless a test says otherwise, so outcomes do not depend on the dice.
  for (const name of ai.providerNames()) ai.configure(name, { failureRate: 0, latencyMs: 0 });
  return ai;
}

function answered(outcome: AiChatOutcome): AiChatResponse {
  if (!outcome.ok) throw new Error(`expected an answer, got ${outcome.status}: ${outcome.message}`);
  return outcome.response;
}

const tried = (response: AiChatResponse) =>
  response.attempts.map((attempt) => `${attempt.provider}:${attempt.outcome}`);

describe('generateReply', () => {
  it('gives the same reply to the same conversation', () => {
    const messages = user('Draft a post about our rye bread');
    expect(generateReply(messages, 256)).toEqual(generateReply(messages, 256));
    expect(generateReply(messages, 256, 'heron')).toEqual(generateReply(messages, 256, 'heron'));
    expect(generateReply(messages, 256).content).toContain('rye bread');
  });

  it('reads the last user message, not the system prompt or earlier turns', () => {
    const reply = generateReply(
      [
        { role: 'system', content: 'You write posts for a bakery.' },
        { role: 'user', content: 'Suggest hashtags for muffins' },
        { role: 'assistant', content: '#muffins #community #smallbusiness' },
        { role: 'user', content: 'Suggest hashtags for our sourdough bread launch' },
      ],
      100,
    );
    expect(reply.content).toBe('#sourdough #bread #launch');
  });

  it('builds 3 to 6 hashtags from the key words', () => {
    expect(generateReply(user('Hashtags for croissants'), 100).content).toBe(
      '#croissants #community #smallbusiness',
    );
    const many = generateReply(
      user('Suggest hashtags: "Vegan chocolate cake, gluten free, baked fresh daily in Lisbon"'),
      100,
    ).content.split(' ');
    expect(many).toEqual(['#vegan', '#chocolate', '#cake', '#gluten', '#free', '#baked']);
  });

  it('drafts exactly N distinct numbered posts about the topic', () => {
    const posts = generateReply(
      user('Draft 5 posts about our winter opening hours'),
      1000,
    ).content.split('\n');
    expect(posts.map((line) => line.slice(0, 3))).toEqual(['1. ', '2. ', '3. ', '4. ', '5. ']);
    expect(new Set(posts.map((line) => line.slice(3))).size).toBe(5);
    for (const post of posts) expect(post).toContain('winter opening hours');

    const thirty = generateReply(user('Write 30 short posts about rye'), 4096).content.split('\n');
    expect(thirty).toHaveLength(30);
    expect(thirty[29]?.startsWith('30. ')).toBe(true);
    expect(new Set(thirty.map((line) => line.replace(/^\d+\. /, ''))).size).toBe(30);

    const worded = generateReply(
      user('Draft three Instagram posts about rye bread with hashtags'),
      1000,
    ).content.split('\n');
    expect(worded).toHaveLength(3);
    for (const post of worded) expect(post).toMatch(/ #rye #bread #community$/);
  });

  it('does the task named first', () => {
    expect(generateReply(user('Suggest hashtags for my 3 posts about scones'), 100).content).toBe(
      '#scones #community #smallbusiness',
    );
  });

  it('shortens the given text', () => {
    const original =
      'We are really very happy to announce that our bakery opens a second shop downtown next month.';
    expect(generateReply(user(`Shorten: "${original}"`), 100).content).toBe(
      'Our bakery opens a second shop downtown next month.',
    );
    const long =
      'Our croissants are baked every morning with French butter, and they sell out by ten, so come early.';
    const shorter = generateReply(user(`Make this shorter: ${long}`), 100).content;
    expect(shorter.length).toBeLessThan(long.length);
    expect(shorter.startsWith('Our croissants are baked')).toBe(true);
  });

  it('rewords the given text', () => {
    expect(
      generateReply(user('Rephrase: "Our new bread is great. Buy it today."'), 100).content,
    ).toBe('Grab it this very day. Our fresh bread is wonderful.');
    const text = 'Come and see us.';
    const rewritten = generateReply(user(`Rewrite: "${text}"`), 100).content;
    expect(rewritten).not.toBe(text);
    expect(rewritten).toContain(text);
  });

  it('cuts at max_tokens on a word boundary and says so', () => {
    const full = generateReply(user('Draft 20 posts about bread'), 4096);
    expect(full.finishReason).toBe('stop');
    const reply = generateReply(user('Draft 20 posts about bread'), 30);
    expect(reply.finishReason).toBe('length');
    expect(reply.content.length).toBeLessThanOrEqual(30 * 4);
    expect(reply.completionTokens).toBe(countTokens(reply.content));
    expect(reply.completionTokens).toBeLessThanOrEqual(30);
    expect(full.content.startsWith(reply.content)).toBe(true);
    // The cut lands before a space or a line break, never inside a word.
    expect(full.content.charAt(reply.content.length)).toMatch(/\s/);
  });

  it('counts tokens as ceil(characters / 4), plus 4 per prompt message', () => {
    expect([
      countTokens(''),
      countTokens('abc'),
      countTokens('abcd'),
      countTokens('abcde'),
    ]).toEqual([0, 1, 1, 2]);
    expect(
      promptTokens([
        { role: 'user', content: 'abcdefgh' },
        { role: 'system', content: 'a' },
      ]),
    ).toBe(2 + 4 + 1 + 4);
  });
});

describe('AiRouter', () => {
  it('picks the cheapest provider whose limit allows max_tokens', async () => {
    const ai = router();
    const cheap = answered(await ai.chat(ask('Draft a post about rye'), 'chat_1'));
    expect([cheap.id, cheap.provider, cheap.model]).toEqual(['chat_1', 'lark', 'lark-mini-1']);
    expect(tried(cheap)).toEqual(['lark:ok']);
    expect(answered(await ai.chat(ask('Draft a post about rye', 513), 'c')).provider).toBe('heron');
    expect(answered(await ai.chat(ask('Draft a post about rye', 2049), 'c')).provider).toBe('owl');
  });

  it('answers in the wire shape with usage and cost in integer micro-dollars', async () => {
    const ai = router();
    const messages = user('Draft a post about rye');
    const response = answered(
      await ai.chat({ messages, max_tokens: 256, provider: 'owl' }, 'chat_9'),
    );
    const reply = generateReply(messages, 256, 'owl');
    const prompt = Math.ceil('Draft a post about rye'.length / 4) + 4;
    const total = prompt + reply.completionTokens;
    expect(response).toEqual({
      id: 'chat_9',
      provider: 'owl',
      model: 'owl-large-3',
      message: { role: 'assistant', content: reply.content },
      finish_reason: 'stop',
      usage: {
        prompt_tokens: prompt,
        completion_tokens: reply.completionTokens,
        total_tokens: total,
      },
      // owl: 15 000 µ$ per 1k tokens = 15 µ$ a token.
      cost_usd: `0.${String(total * 15).padStart(6, '0')}`,
      attempts: [{ provider: 'owl', outcome: 'ok', latency_ms: 0 }],
    });
  });

  it('rounds the cost to whole micro-dollars and formats dollars above one', async () => {
    const pricey = new AiRouter({
      now: () => 0,
      random: () => 1,
      timeScale: 1,
      providers: [
        {
          name: 'gold',
          model: 'gold-1',
          costPer1kTokensMicroUsd: 123_456_789,
          latencyMs: 0,
          maxTokens: 100,
          failureRate: 0,
        },
      ],
    });
    const response = answered(await pricey.chat(ask('Draft a post about rye', 100), 'x'));
    // 123 456.789 µ$ a token: never a whole number of micro-dollars for a total under 1000.
    const micro = Math.round(response.usage.total_tokens * 123_456.789);
    expect(micro).toBeGreaterThan(1_000_000);
    expect(response.cost_usd).toMatch(/^[1-9]\d*\.\d{6}$/);
    expect(Math.round(Number(response.cost_usd) * 1e6)).toBe(micro);
  });

  it('waits each provider latency, scaled', async () => {
    const ai = router(() => 0, 0.5);
    ai.configure('lark', { latencyMs: 40 });
    const started = performance.now();
    const response = answered(await ai.chat(ask('hello'), 'a'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(response.attempts).toEqual([{ provider: 'lark', outcome: 'ok', latency_ms: 20 }]);
  });

  it('fails over to the next cheapest when the cheapest fails', async () => {
    const ai = router();
    ai.configure('lark', { failureRate: 1 });
    const response = answered(await ai.chat(ask('hello'), 'a'));
    expect(response.provider).toBe('heron');
    expect(tried(response)).toEqual(['lark:failed', 'heron:ok']);
    expect(response.attempts[0]?.error).toMatch(/^lark: \S/);
    expect(response.attempts[1]).not.toHaveProperty('error');
  });

  it('skips a failed provider while it cools down, then tries it again', async () => {
    let now = 1_000;
    const ai = router(() => now, 0.5);
    ai.configure('lark', { failureRate: 1 });
    answered(await ai.chat(ask('hello'), 'a'));
    // 30 s of cool-down, scaled by 0.5.
    expect(ai.status().find((provider) => provider.name === 'lark')).toMatchObject({
      healthy: false,
      unhealthyUntilMs: 16_000,
    });

    // Working again, but still cooling down: a healthy provider goes first.
    ai.configure('lark', { failureRate: 0 });
    now = 15_999;
    expect(tried(answered(await ai.chat(ask('hello'), 'b')))).toEqual(['heron:ok']);

    now = 16_000;
    expect(ai.status().find((provider) => provider.name === 'lark')).toMatchObject({
      healthy: true,
      unhealthyUntilMs: null,
    });
    expect(tried(answered(await ai.chat(ask('hello'), 'c')))).toEqual(['lark:ok']);
  });

  it('still tries an unhealthy provider, last, when it is the only hope', async () => {
    const ai = router();
    ai.configure('lark', { failureRate: 1 });
    answered(await ai.chat(ask('hello'), 'a')); // lark now cools down
    ai.configure('lark', { failureRate: 0 });
    ai.configure('heron', { failureRate: 1 });
    ai.configure('owl', { failureRate: 1 });
    expect(tried(answered(await ai.chat(ask('hello'), 'b')))).toEqual([
      'heron:failed',
      'owl:failed',
      'lark:ok',
    ]);
  });

  it('does not fail over from a named provider', async () => {
    const ai = router();
    ai.configure('owl', { failureRate: 1 });
    const outcome = await ai.chat(ask('hello', 100, 'owl'), 'a');
    expect(outcome).toMatchObject({ ok: false, status: 503, code: 'ai_unavailable' });
    expect(!outcome.ok && outcome.attempts.map((attempt) => attempt.provider)).toEqual(['owl']);
    expect(answered(await ai.chat(ask('hello', 100, 'heron'), 'b')).provider).toBe('heron');
  });

  it('refuses an unknown provider and a max_tokens over the limit with 422', async () => {
    const ai = router();
    expect(await ai.chat(ask('hello', 100, 'eagle'), 'a')).toEqual({
      ok: false,
      status: 422,
      code: 'validation_failed',
      field: 'provider',
      message: 'must be auto or one of lark, heron, owl',
      attempts: [],
    });
    expect(await ai.chat(ask('hello', 1000, 'lark'), 'b')).toMatchObject({
      ok: false,
      status: 422,
      field: 'max_tokens',
      message: 'must be at most 512 for lark',
    });
    expect(await ai.chat(ask('hello', 4097), 'c')).toMatchObject({
      ok: false,
      status: 422,
      field: 'max_tokens',
      message: 'must be at most 4096',
    });
  });

  it('answers 503 with every attempt when all fail', async () => {
    const ai = router();
    for (const name of ai.providerNames()) ai.configure(name, { failureRate: 1 });
    const outcome = await ai.chat(ask('hello'), 'a');
    expect(outcome).toMatchObject({ ok: false, status: 503, code: 'ai_unavailable' });
    expect(!outcome.ok && outcome.attempts.map((attempt) => attempt.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
    expect(!outcome.ok && outcome.attempts.map((attempt) => attempt.error?.split(':')[0])).toEqual([
      'lark',
      'heron',
      'owl',
    ]);
    expect(ai.status().every((provider) => !provider.healthy)).toBe(true);
  });

  it('only knows unknown names as unknown, and never changes the shared defaults', () => {
    const ai = router();
    expect(ai.configure('eagle', { failureRate: 1 })).toBe(false);
    expect(ai.configure('lark', { failureRate: 1, latencyMs: 5 })).toBe(true);
    expect(ai.status().find((provider) => provider.name === 'lark')).toMatchObject({
      failureRate: 1,
      latencyMs: 5,
    });
    expect(DEFAULT_AI_PROVIDERS[0]).toMatchObject({
      name: 'lark',
      failureRate: 0.05,
      latencyMs: 20,
    });
  });
});
