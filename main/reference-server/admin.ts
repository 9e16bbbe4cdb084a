// The reference server's admin API (Node, main process), served only with --admin and behind its
// own token: accounts and tokens, seeding, raising events, fault injection, AI provider health,
// the server clock, and deleting an order. Tests and the demo drive the platform through it.
import { z } from 'zod';
import { EVENT_TYPES, PLANS } from '../platform/wire';
import type { Plan } from '../platform/wire';
import type { AiRouter } from './ai';
import type { EventSource } from './events';
import { HttpError, notFound, parseWith, route } from './http';
import type { Route } from './http';
import { formatId, parseId } from './ids';
import type { FixedWindowLimiter } from './rate-limiter';
import { FIELD_CASES, quirksView } from './quirks';
import type { Quirks } from './quirks';
import { seedDemo } from './seed';
import { ODD_ANSWERS } from './server-state';
import type { Faults, ServerClock, ServerStats } from './server-state';
import type { ReferenceServerStore } from './store';

/** What the admin API works on, handed in by the server that serves it (server.ts). */
export interface AdminTarget {
  /** The default account, that events go to when the request names none. */
  accountId: number;
  store: ReferenceServerStore;
  events: EventSource;
  ai: AiRouter;
  faults: Faults;
  stats: ServerStats;
  limiter: FixedWindowLimiter;
  clock: ServerClock;
  quirks: Quirks;
}

export interface AdminContext {
  server: AdminTarget;
  random: () => number;
  body: unknown;
  query: URLSearchParams;
}

const plan = z.enum(Object.keys(PLANS) as [Plan, ...Plan[]]);
const share = z.number().min(0).max(1);

const accountCreate = z.strictObject({
  name: z.string().min(1).default('Test account'),
  plan: plan.default('free'),
});
const accountPatch = z.strictObject({
  plan: plan.optional(),
  rate_limit: z.number().int().min(1).nullable().optional(),
  suspended: z.boolean().optional(),
});
const tokenRevoke = z.strictObject({ token: z.string().min(1) });
const seedRequest = z.strictObject({ seed: z.literal('demo').default('demo') });
const eventRequest = z.strictObject({
  type: z.enum(EVENT_TYPES),
  account_id: z.string().optional(),
});
const faultsPatch = z.strictObject({
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  error_rate: share.optional(),
  drop_after_commit_rate: share.optional(),
  odd_answer_rate: share.optional(),
  odd_answer: z.enum(ODD_ANSWERS).optional(),
  ignore_idempotency: z.boolean().optional(),
  ignore_reference_filter: z.boolean().optional(),
});
const providerPatch = z.strictObject({
  failure_rate: share.optional(),
  latency_ms: z.number().int().min(0).max(60_000).optional(),
});
const clockAdvance = z.strictObject({ advance_ms: z.number().int().min(0) });
const quirksPatch = z.strictObject({
  spec_literal: z.boolean().optional(),
  field_case: z.enum(FIELD_CASES).optional(),
  trims_text: z.boolean().optional(),
  no_created_at: z.boolean().optional(),
  ignores_page: z.boolean().optional(),
});

function accountRowId({ server }: AdminContext, id: string | undefined): number {
  const rowId = parseId('account', id ?? '');
  if (rowId === null || !server.store.accounts.account(rowId)) throw notFound('account', id ?? '');
  return rowId;
}

function faultsView({ faults }: AdminTarget) {
  return {
    latency_ms: faults.latencyMs,
    error_rate: faults.errorRate,
    drop_after_commit_rate: faults.dropAfterCommitRate,
    odd_answer_rate: faults.oddAnswerRate,
    odd_answer: faults.oddAnswer,
    ignore_idempotency: faults.ignoreIdempotency,
    ignore_reference_filter: faults.ignoreReferenceFilter,
  };
}

export const adminRoutes: readonly Route<AdminContext>[] = [
  route('GET', '/state', ({ server }) => ({
    status: 200,
    body: {
      accounts: server.store.accounts.all().map((account) => ({
        id: formatId('account', account.id),
        name: account.name,
        plan: account.plan,
        rate_limit: account.rate_limit ?? PLANS[account.plan],
        suspended: account.suspended === 1,
        counts: server.store.accounts.counts(account.id),
      })),
      window_ms: server.limiter.windowMs,
      faults: faultsView(server),
      ai_providers: server.ai.status(),
      stats: server.stats,
      clock_offset_ms: server.clock.offsetMs,
      quirks: quirksView(server.quirks),
    },
  })),
  route('POST', '/accounts', ({ server, body }) => {
    const input = parseWith(accountCreate, body);
    const id = server.store.accounts.createAccount(input.name, input.plan);
    return {
      status: 201,
      body: { account_id: formatId('account', id), token: server.store.accounts.mintToken(id) },
    };
  }),
  route('PATCH', '/accounts/:id', (context, { id }) => {
    const rowId = accountRowId(context, id);
    const input = parseWith(accountPatch, context.body);
    context.server.store.accounts.updateAccount(rowId, {
      ...(input.plan ? { plan: input.plan } : {}),
      ...(input.rate_limit !== undefined ? { rateLimit: input.rate_limit } : {}),
      ...(input.suspended !== undefined ? { suspended: input.suspended } : {}),
    });
    return { status: 200, body: { account_id: formatId('account', rowId) } };
  }),
  route('POST', '/accounts/:id/tokens', (context, { id }) => ({
    status: 201,
    body: { token: context.server.store.accounts.mintToken(accountRowId(context, id)) },
  })),
  route('POST', '/accounts/:id/seed', (context, { id }) => {
    const rowId = accountRowId(context, id);
    parseWith(seedRequest, context.body);
    if (context.server.store.accounts.counts(rowId).bots > 0) {
      throw new HttpError(
        409,
        'already_seeded',
        'The account has data already; seed an empty account',
      );
    }
    seedDemo(context.server.store, rowId, context.random, context.server.clock.now());
    return { status: 201, body: { counts: context.server.store.accounts.counts(rowId) } };
  }),
  route('POST', '/tokens/revoke', ({ server, body }) => ({
    status: 200,
    body: { revoked: server.store.accounts.revokeToken(parseWith(tokenRevoke, body).token) },
  })),
  route('POST', '/events', (context) => {
    const input = parseWith(eventRequest, context.body);
    const accountId =
      input.account_id === undefined
        ? context.server.accountId
        : accountRowId(context, input.account_id);
    const event = context.server.events.raise(accountId, input.type);
    if (!event)
      throw new HttpError(
        409,
        'nothing_to_raise',
        `The account has no data to raise ${input.type} from`,
      );
    return { status: 201, body: event };
  }),
  route('PUT', '/faults', ({ server, body }) => {
    const input = parseWith(faultsPatch, body);
    if (input.latency_ms !== undefined) server.faults.latencyMs = input.latency_ms;
    if (input.error_rate !== undefined) server.faults.errorRate = input.error_rate;
    if (input.drop_after_commit_rate !== undefined)
      server.faults.dropAfterCommitRate = input.drop_after_commit_rate;
    if (input.odd_answer_rate !== undefined) server.faults.oddAnswerRate = input.odd_answer_rate;
    if (input.odd_answer !== undefined) server.faults.oddAnswer = input.odd_answer;
    if (input.ignore_idempotency !== undefined)
      server.faults.ignoreIdempotency = input.ignore_idempotency;
    if (input.ignore_reference_filter !== undefined)
      server.faults.ignoreReferenceFilter = input.ignore_reference_filter;
    return { status: 200, body: faultsView(server) };
  }),
  route('PUT', '/quirks', ({ server, body }) => {
    const input = parseWith(quirksPatch, body);
    if (input.spec_literal !== undefined) server.quirks.specLiteral = input.spec_literal;
    if (input.field_case !== undefined) server.quirks.fieldCase = input.field_case;
    if (input.trims_text !== undefined) server.quirks.trimsText = input.trims_text;
    if (input.no_created_at !== undefined) server.quirks.noCreatedAt = input.no_created_at;
    if (input.ignores_page !== undefined) server.quirks.ignoresPage = input.ignores_page;
    return { status: 200, body: quirksView(server.quirks) };
  }),
  route('PUT', '/ai/providers/:name', ({ server, body }, { name }) => {
    const input = parseWith(providerPatch, body);
    const known = server.ai.configure(name ?? '', {
      ...(input.failure_rate !== undefined ? { failureRate: input.failure_rate } : {}),
      ...(input.latency_ms !== undefined ? { latencyMs: input.latency_ms } : {}),
    });
    if (!known) throw notFound('AI provider', name ?? '');
    return { status: 200, body: server.ai.status().find((provider) => provider.name === name) };
  }),
  // The public API deletes no order; a shop does. Tests use this to delete one mid-sync.
  route('DELETE', '/orders/:id', ({ server }, { id }) => {
    const rowId = parseId('order', id ?? '');
    if (rowId === null || !server.store.orders.deleteOrder(server.accountId, rowId))
      throw notFound('order', id ?? '');
    return { status: 204 };
  }),
  route('POST', '/clock', ({ server, body }) => {
    server.clock.offsetMs += parseWith(clockAdvance, body).advance_ms;
    return {
      status: 200,
      body: { now: new Date(server.clock.now()).toISOString(), offset_ms: server.clock.offsetMs },
    };
  }),
];
