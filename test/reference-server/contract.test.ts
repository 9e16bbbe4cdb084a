// The contract run: the reference server's answers to every operation — a valid call, `{}` (or a
// bad query / unknown id for reads), no token, a suspended account, an exhausted rate limit, an
// injected fault, and the operation's own refusals — each checked by ajv against the OpenAPI
// document (test/support/openapi-contract.ts). Failures name operation, status and field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Contract } from '../support/openapi-contract';
import type { Answer, OpenApi } from '../support/openapi-contract';
import { startTestPlatform } from '../support/platform';
import { receiver } from '../support/webhook-receiver';

const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as OpenApi;

interface Case {
  method: string;
  /** Below the base URL, with any query. */
  path: string;
  /** A value is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The status this case is meant to draw from the server. */
  expect: number;
}

type Send = (request: Case, token: string | null) => Promise<Answer>;

function sender(baseUrl: string): Send {
  return async (request, token) => {
    const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: {
        ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: raw }),
    });
    return {
      method: request.method,
      path: request.path.split('?')[0] ?? '',
      status: response.status,
      headers: response.headers,
      text: await response.text(),
    };
  };
}

const json = <T>(answer: Answer) => JSON.parse(answer.text) as T;

async function startContractRun() {
  // A frozen clock: the rate-limit window cannot roll over between the calls meant to hit it.
  const platform = await startTestPlatform({
    seed: 'demo',
    plan: 'enterprise',
    now: () => Date.parse('2026-11-25T12:00:30.000Z'),
  });
  const { server } = platform;
  const send = sender(server.baseUrl);
  const get = async <T>(path: string) =>
    json<T>(await send({ method: 'GET', path, expect: 200 }, server.token));
  const [bot] = (await get<{ data: { id: string }[] }>('/bots?per_page=1')).data;
  const [active] = (await get<{ data: { id: string }[] }>('/subscribers?status=active&per_page=1'))
    .data;
  const [gone] = (
    await get<{ data: { id: string }[] }>('/subscribers?status=unsubscribed&per_page=1')
  ).data;
  if (!bot || !active || !gone)
    throw new Error('the demo seed has bots and both kinds of subscriber');
  return { ...platform, send, bot: bot.id, active: active.id, gone: gone.id };
}

/** One valid call per operation; `fresh` makes a bot that the write may use up. */
function validCalls(ids: { bot: string; active: string; fresh: () => Promise<string> }) {
  let sku = 0;
  return async (): Promise<Case[]> => [
    { method: 'GET', path: '/bots', expect: 200 },
    { method: 'GET', path: `/bots/${ids.bot}`, expect: 200 },
    { method: 'POST', path: '/bots', body: { name: 'Contract bot' }, expect: 201 },
    { method: 'PATCH', path: `/bots/${ids.bot}`, body: { description: null }, expect: 200 },
    { method: 'DELETE', path: `/bots/${await ids.fresh()}`, expect: 204 },
    { method: 'GET', path: '/subscribers?per_page=5', expect: 200 },
    { method: 'GET', path: `/subscribers/${ids.active}`, expect: 200 },
    {
      method: 'POST',
      path: `/subscribers/${ids.active}/messages`,
      body: { text: 'Hi' },
      expect: 201,
    },
    {
      method: 'POST',
      path: `/subscribers/${ids.active}/tags`,
      body: { tag: `t${++sku}` },
      expect: 201,
    },
    { method: 'GET', path: '/posts?per_page=5', expect: 200 },
    { method: 'POST', path: '/posts', body: { bot_id: ids.bot, text: 'Now' }, expect: 201 },
    { method: 'GET', path: '/products?per_page=5', expect: 200 },
    {
      method: 'POST',
      path: '/products',
      body: { sku: `CONTRACT-${++sku}`, name: 'Rye', price: '4.50', currency: 'EUR' },
      expect: 201,
    },
    { method: 'GET', path: '/orders?per_page=5', expect: 200 },
    {
      method: 'POST',
      path: '/ai/chat',
      body: { messages: [{ role: 'user', content: 'A slogan for rye bread' }], max_tokens: 32 },
      expect: 200,
    },
    { method: 'GET', path: '/ai/usage', expect: 200 },
    {
      method: 'POST',
      path: '/webhooks',
      body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] },
      expect: 201,
    },
  ];
}

/** `{}` for every write; a malformed query or an unknown id for every read. */
function emptyCalls(ids: { bot: string; active: string }): Case[] {
  return [
    { method: 'GET', path: '/bots?per_page=0', expect: 400 },
    { method: 'GET', path: '/bots/bot_999999', expect: 404 },
    { method: 'POST', path: '/bots', body: {}, expect: 422 },
    { method: 'PATCH', path: `/bots/${ids.bot}`, body: {}, expect: 422 },
    { method: 'DELETE', path: '/bots/bot_999999', body: {}, expect: 404 },
    { method: 'GET', path: '/subscribers?page=first', expect: 400 },
    { method: 'GET', path: '/subscribers/sub_999999', expect: 404 },
    { method: 'POST', path: `/subscribers/${ids.active}/messages`, body: {}, expect: 422 },
    { method: 'POST', path: `/subscribers/${ids.active}/tags`, body: {}, expect: 422 },
    { method: 'GET', path: '/posts?from=yesterday', expect: 400 },
    { method: 'POST', path: '/posts', body: {}, expect: 422 },
    { method: 'GET', path: '/products?per_page=201', expect: 400 },
    { method: 'POST', path: '/products', body: {}, expect: 422 },
    { method: 'GET', path: '/orders?status=lost', expect: 400 },
    { method: 'POST', path: '/ai/chat', body: {}, expect: 422 },
    { method: 'GET', path: '/ai/usage?from=2026-02-30', expect: 400 },
    { method: 'POST', path: '/webhooks', body: {}, expect: 422 },
  ];
}

/** The refusals particular to some operations, and the other successes. */
function ownCalls(ids: { bot: string; active: string; gone: string }): Case[] {
  const key = { 'Idempotency-Key': 'contract-key-1' };
  return [
    { method: 'POST', path: '/bots', body: '{"name":', expect: 400 },
    {
      method: 'POST',
      path: '/bots',
      body: { name: 'x' },
      headers: { 'Idempotency-Key': 'has space' },
      expect: 400,
    },
    { method: 'POST', path: '/bots', body: { name: 'Keyed' }, headers: key, expect: 201 },
    { method: 'POST', path: '/bots', body: { name: 'Keyed' }, headers: key, expect: 201 },
    { method: 'POST', path: '/bots', body: { name: 'Other' }, headers: key, expect: 422 },
    {
      method: 'POST',
      path: '/bots',
      body: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
      expect: 415,
    },
    {
      method: 'POST',
      path: '/posts',
      body: { bot_id: ids.bot, text: 'x'.repeat(1_100_000) },
      expect: 413,
    },
    {
      method: 'POST',
      path: '/posts',
      body: { bot_id: ids.bot, text: 'Later', scheduled_at: '2026-12-01T09:00:00+01:00' },
      expect: 201,
    },
    { method: 'POST', path: '/posts', body: { bot_id: 'bot_999999', text: 'x' }, expect: 422 },
    { method: 'PATCH', path: '/bots/bot_999999', body: { name: 'x' }, expect: 404 },
    { method: 'POST', path: '/subscribers/sub_999999/messages', body: { text: 'x' }, expect: 404 },
    { method: 'POST', path: `/subscribers/${ids.gone}/messages`, body: { text: 'x' }, expect: 409 },
    { method: 'POST', path: '/subscribers/sub_999999/tags', body: { tag: 'x' }, expect: 404 },
    { method: 'POST', path: `/subscribers/${ids.active}/tags`, body: { tag: 'T1' }, expect: 200 },
    {
      method: 'POST',
      path: '/products',
      body: { sku: 'CONTRACT-2', name: 'Again', price: 4.5, currency: 'EUR' },
      expect: 409,
    },
    {
      method: 'POST',
      path: '/ai/chat',
      body: { messages: [{ role: 'user', content: 'x' }], provider: 'nobody' },
      expect: 422,
    },
    { method: 'GET', path: '/ai/usage?from=2026-11-20&to=2026-11-10', expect: 400 },
  ];
}

describe('the contract run: every answer of the reference server fits the OpenAPI document', () => {
  it('to every operation, with valid and invalid inputs, without a token and over the limits', async () => {
    const run = await startContractRun();
    const { server, send, admin } = run;
    const contract = new Contract(document);
    const fresh = async () =>
      json<{ id: string }>(
        await send(
          { method: 'POST', path: '/bots', body: { name: 'Spare' }, expect: 201 },
          server.token,
        ),
      ).id;
    const valid = validCalls({ ...run, fresh });
    const failures: string[] = [];
    const statuses = new Map<string, Set<number>>();
    let cases = 0;
    const runAll = async (requests: Case[], token: string | null, expected?: number) => {
      for (const request of requests) {
        const answer = await send(request, token);
        const operation = contract.operationOf(request.method, answer.path)?.operationId ?? '?';
        const want = expected ?? request.expect;
        cases++;
        statuses.set(operation, new Set([...(statuses.get(operation) ?? []), answer.status]));
        if (answer.status !== want)
          failures.push(
            `${operation} ${request.path}: expected ${want}, got ${answer.status} ${answer.text.slice(0, 200)}`,
          );
        failures.push(...contract.check(answer));
        if (answer.status < 300 && typeof request.body === 'object')
          failures.push(
            ...contract.checkAcceptedRequest(request.method, answer.path, request.body),
          );
      }
    };

    await runAll(await valid(), server.token);
    await runAll(emptyCalls(run), server.token);
    await runAll(ownCalls(run), server.token);
    await runAll(await valid(), null, 401);

    server.store.accounts.updateAccount(server.accountId, { suspended: true });
    await runAll(await valid(), server.token, 403);
    server.store.accounts.updateAccount(server.accountId, { suspended: false });

    server.faults.errorRate = 1;
    await runAll(await valid(), server.token, 503);
    server.faults.errorRate = 0;

    for (const provider of ['lark', 'heron', 'owl'])
      await admin('PUT', `/ai/providers/${provider}`, { failure_rate: 1 });
    await runAll(
      (await valid()).filter((request) => request.path === '/ai/chat'),
      server.token,
      503,
    );

    // An account allowed one request per window: after it, every operation is 429.
    const limited = server.store.accounts.createAccount('Limited', 'free');
    server.store.accounts.updateAccount(limited, { rateLimit: 1 });
    const limitedToken = server.store.accounts.mintToken(limited);
    await runAll([{ method: 'GET', path: '/bots', expect: 200 }], limitedToken);
    await runAll(await valid(), limitedToken, 429);

    expect(failures).toEqual([]);
    // Every operation was seen answering success, 401, 403, 429 and 503 at least.
    expect(statuses.size).toBe(17);
    for (const [operation, seen] of statuses)
      expect([operation, [401, 403, 429, 503].every((status) => seen.has(status))]).toEqual([
        operation,
        true,
      ]);
    expect(cases).toBe(121);
    console.log(`contract run: ${cases} answers checked against docs/openapi.json`);
  });

  it('to a delivery of each of the three webhook events: its headers and payload', async () => {
    const { server, send, admin } = await startContractRun();
    const hook = await receiver();
    const events = ['message.received', 'order.created', 'comment.posted'];
    const subscribe = { method: 'POST', path: '/webhooks', expect: 201 };
    await send({ ...subscribe, body: { url: hook.url, events } }, server.token);
    for (const type of events) await admin('POST', '/events', { type });
    await hook.until(events.length);
    const contract = new Contract(document);
    const failures = hook.received.flatMap(({ headers, body }) => {
      const type = String(headers['x-event-type']);
      const fetchHeaders = new Headers(
        Object.entries(headers).map(([name, value]): [string, string] => [name, String(value)]),
      );
      return contract.checkDelivery(type, fetchHeaders, body);
    });
    expect(failures).toEqual([]);
    expect(hook.received.map(({ headers }) => headers['x-event-type']).sort()).toEqual(
      [...events].sort(),
    );
  });

  it('names operation, status and field when an answer breaks the contract', async () => {
    const { server, send } = await startContractRun();
    const answer = await send(
      { method: 'POST', path: '/bots', body: { name: 'x' }, expect: 201 },
      server.token,
    );
    const { id: _id, ...withoutId } = json<Record<string, unknown>>(answer);
    const contract = new Contract(document);
    expect(
      contract.check({ ...answer, text: JSON.stringify({ ...withoutId, colour: 'red' }) }),
    ).toEqual([
      "createBot 201: body (whole): must have required property 'id'",
      'createBot 201: body (whole): must NOT have additional properties (colour)',
    ]);
    expect(contract.check({ ...answer, status: 418 })).toEqual([
      'createBot 418: the status is not declared',
    ]);
    const headers = new Headers(answer.headers);
    headers.delete('x-ratelimit-remaining');
    expect(contract.check({ ...answer, headers })).toEqual([
      'createBot 201: header X-RateLimit-Remaining is missing',
    ]);
  });
});
