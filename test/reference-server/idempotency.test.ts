// Idempotency keys, duplicate SKUs and the after-commit faults of the reference server.
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../main/platform/errors';
import { rejectionOf, startTestPlatform } from '../support/platform';

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and creates nothing new', async () => {
    const { client, server } = await startTestPlatform({ seed: 'demo' });
    const input = { sku: 'IDEM-1', name: 'Scone', price: '2.50', currency: 'EUR' };
    const first = await client.createProduct(input, { idempotencyKey: 'key-1' });
    const replay = await client.createProduct(input, { idempotencyKey: 'key-1' });
    expect(replay).toEqual(first);
    expect((await client.listProducts({ sku: 'IDEM-1' })).items).toHaveLength(1);

    const raw = await fetch(`${server.baseUrl}/products`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'key-1',
      },
      body: JSON.stringify(input),
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
  });

  it('can act like a platform that ignores the key (admin fault), so clients are tested without it', async () => {
    const { client, admin } = await startTestPlatform({ seed: 'demo' });
    await admin('PUT', '/faults', { ignore_idempotency: true });
    const bot = (await client.listBots()).items[0]?.id ?? '';
    await client.createPost({ bot_id: bot, text: 'Twice' }, { idempotencyKey: 'same' });
    await client.createPost({ bot_id: bot, text: 'Twice' }, { idempotencyKey: 'same' });
    expect(
      (await client.listPosts({ per_page: 200 })).items.filter((p) => p.text === 'Twice'),
    ).toHaveLength(2);
  });

  it('refuses the same key with another body', async () => {
    const { client } = await startTestPlatform({ seed: 'demo' });
    const bot = (await client.listBots()).items[0];
    await client.createPost({ bot_id: bot?.id ?? '', text: 'One' }, { idempotencyKey: 'post-key' });
    const error = await rejectionOf(
      client.createPost({ bot_id: bot?.id ?? '', text: 'Two' }, { idempotencyKey: 'post-key' }),
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused', retryable: false });
    expect(
      (await client.listPosts({ per_page: 200 })).items.filter((p) => p.text === 'Two'),
    ).toHaveLength(0);
  });

  it('replays a refusal too, but not a server error', async () => {
    const { client, admin } = await startTestPlatform({ seed: 'demo' });
    await client.createProduct({ sku: 'X-1', name: 'X', price: '1', currency: 'USD' });
    const conflict = await rejectionOf(
      client.createProduct(
        { sku: 'X-1', name: 'Y', price: '1', currency: 'USD' },
        { idempotencyKey: 'k' },
      ),
    );
    const replayed = await rejectionOf(
      client.createProduct(
        { sku: 'X-1', name: 'Y', price: '1', currency: 'USD' },
        { idempotencyKey: 'k' },
      ),
    );
    expect(replayed).toMatchObject({
      status: 409,
      code: 'duplicate_sku',
      existingId: (conflict as PlatformError).existingId,
    });

    await admin('PUT', '/faults', { error_rate: 1 });
    const failed = await rejectionOf(
      client.createProduct(
        { sku: 'X-2', name: 'Z', price: '1', currency: 'USD' },
        { idempotencyKey: 'k2' },
      ),
    );
    expect(failed).toMatchObject({ status: 503, kind: 'server', retryable: true });
    await admin('PUT', '/faults', { error_rate: 0 });
    const retried = await client.createProduct(
      { sku: 'X-2', name: 'Z', price: '1', currency: 'USD' },
      { idempotencyKey: 'k2' },
    );
    expect(retried.sku).toBe('X-2');
  });
});

describe('drop after commit', () => {
  it('commits the write, drops the connection, and the client reports an unknown outcome', async () => {
    const { client, admin, server } = await startTestPlatform({ seed: 'demo' });
    const bot = (await client.listBots()).items[0];
    await admin('PUT', '/faults', { drop_after_commit_rate: 1 });
    const error = await rejectionOf(
      client.createPost({
        bot_id: bot?.id ?? '',
        text: 'Lost answer',
        client_reference: 'ref-drop',
      }),
    );
    expect(error).toMatchObject({ kind: 'network', mayHaveCommitted: true, retryable: true });
    await admin('PUT', '/faults', { drop_after_commit_rate: 0 });
    const found = await client.listPosts({ client_reference: 'ref-drop' });
    expect(found.items).toHaveLength(1);
    expect(server.stats.droppedAfterCommit).toBe(1);
  });

  it.each([
    ['no_content', { kind: 'bad_response', sent: true, status: 204 }],
    ['location_only', { kind: 'bad_response', sent: true, status: 201 }],
    ['truncated', { kind: 'bad_response', sent: true, status: 201 }],
    ['cut_off', { kind: 'bad_response', sent: true, status: 201 }],
    ['html_502', { kind: 'server', sent: false, mayHaveCommitted: true, status: 502 }],
    ['empty_500', { kind: 'server', sent: false, mayHaveCommitted: true, status: 500 }],
  ])('commits the write, then answers it oddly (%s)', async (odd, expected) => {
    const { client, admin, server } = await startTestPlatform({ seed: 'demo' });
    await admin('PUT', '/faults', { odd_answer_rate: 1, odd_answer: odd });
    const error = await rejectionOf(
      client.createPost({ bot_id: 'bot_1', text: 'Odd answer', client_reference: `ref-${odd}` }),
    );
    expect(error).toMatchObject(expected);
    await admin('PUT', '/faults', { odd_answer_rate: 0 });
    const found = await client.listPosts({ client_reference: `ref-${odd}` });
    expect(found.items).toHaveLength(1);
    if (odd === 'location_only')
      expect((error as PlatformError).createdId).toBe(found.items[0]?.id);
    expect(server.stats.oddAfterCommit).toBe(1);
  });

  it('can ignore the client_reference filter of lists, as platforms ignore unknown parameters', async () => {
    const { client, admin } = await startTestPlatform({ seed: 'demo' });
    await client.createPost({ bot_id: 'bot_1', text: 'Mine', client_reference: 'ref-mine' });
    expect((await client.listPosts({ client_reference: 'ref-mine' })).items).toHaveLength(1);
    await admin('PUT', '/faults', { ignore_reference_filter: true });
    expect((await client.listPosts({ client_reference: 'ref-mine' })).items.length).toBeGreaterThan(
      1,
    );
  });

  it('adds latency when asked', async () => {
    const { client, admin } = await startTestPlatform();
    await admin('PUT', '/faults', { latency_ms: 120 });
    const started = performance.now();
    await client.listBots();
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});
