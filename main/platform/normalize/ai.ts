// The platform's AI answers (Node, main process): a chat completion in the platform's own shape
// or an OpenAI-like or Anthropic-like one, with its usage and attempts, and the usage report by day
// and provider.
import { z } from 'zod';
import { first, isRecord, nullableText } from './fields';

const attemptSchema = z.looseObject({
  provider: z.string(),
  outcome: z.string().default('ok'),
  latency_ms: z.number().nullish(),
  error: nullableText,
});

export const aiChatSchema = z.unknown().transform((value, context) => {
  if (!isRecord(value)) {
    context.addIssue({ code: 'custom', message: 'the answer is not an object' });
    return z.NEVER;
  }
  const choice = Array.isArray(value.choices) && isRecord(value.choices[0]) ? value.choices[0] : {};
  const message = isRecord(value.message)
    ? value.message
    : isRecord(choice.message)
      ? choice.message
      : {};
  const content = first({ ...value, message_content: message.content }, [
    'message_content',
    'content',
    'text',
    'output',
  ]);
  if (typeof content !== 'string') {
    context.addIssue({
      code: 'custom',
      path: ['message', 'content'],
      message: 'the answer has no text',
    });
    return z.NEVER;
  }
  const usage = isRecord(value.usage) ? value.usage : {};
  const tokens = (keys: string[]) => {
    const count = first(usage, keys);
    return typeof count === 'number' ? count : 0;
  };
  const prompt = tokens(['prompt_tokens', 'input_tokens']);
  const completion = tokens(['completion_tokens', 'output_tokens']);
  const attempts = z.array(attemptSchema).safeParse(value.attempts ?? []);
  const provider = typeof value.provider === 'string' ? value.provider : 'unknown';
  return {
    ...value,
    id: value.id === undefined || value.id === null ? null : String(value.id),
    provider,
    model: typeof value.model === 'string' ? value.model : provider,
    message: { role: 'assistant' as const, content },
    finish_reason: String(value.finish_reason ?? choice.finish_reason ?? 'stop'),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: tokens(['total_tokens']) || prompt + completion,
    },
    cost_usd:
      value.cost_usd === undefined || value.cost_usd === null ? null : String(value.cost_usd),
    attempts: attempts.success ? attempts.data : [],
  };
});

const usageTotals = {
  requests: z.number().default(0),
  prompt_tokens: z.number().default(0),
  completion_tokens: z.number().default(0),
  cost_usd: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? null : String(value))),
};

const withTotal = <
  T extends { prompt_tokens: number; completion_tokens: number; total_tokens?: number | undefined },
>(
  totals: T,
) => ({
  ...totals,
  total_tokens: totals.total_tokens ?? totals.prompt_tokens + totals.completion_tokens,
});

const usageDaySchema = z
  .looseObject({
    date: z.string(),
    ...usageTotals,
    total_tokens: z.number().optional(),
    providers: z
      .array(
        z
          .looseObject({
            provider: z.string(),
            ...usageTotals,
            total_tokens: z.number().optional(),
          })
          .transform(withTotal),
      )
      .nullish()
      .transform((providers) => providers ?? []),
  })
  .transform(withTotal);

export const aiUsageSchema = z
  .union([
    z.array(z.unknown()).transform((data) => ({ data })),
    z.looseObject({ data: z.array(z.unknown()) }),
  ])
  .pipe(
    z.looseObject({
      from: z
        .string()
        .nullish()
        .transform((value) => value ?? null),
      to: z
        .string()
        .nullish()
        .transform((value) => value ?? null),
      data: z.array(usageDaySchema),
    }),
  );

export type AiChat = z.output<typeof aiChatSchema>;
export type AiUsageReport = z.output<typeof aiUsageSchema>;
