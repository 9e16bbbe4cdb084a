// Bot changes and product publishing through the outbox, against the reference server.
import { describe, expect, it } from 'vitest';
import { NotAllowed } from '../../main/core/errors';
import { testWorkspace } from '../support/workspace';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';
import { thrownBy } from '../support/calls';

describe('bots and products through the outbox', () => {
  it('creates, renames and deletes a bot', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = testWorkspace({
      platform,
    });
    const created = call(pressroom, 'createBot', { name: 'Market stall', channel: 'telegram' });
    await call(pressroom, 'publishDue');
    const botId = pressroom.store.outbox.require(created.id).remoteId ?? '';
    expect(await platform.client.getBot(botId)).toMatchObject({
      name: 'Market stall',
      channel: 'telegram',
    });
    call(pressroom, 'renameBot', { botId, name: 'Saturday stall' });
    await call(pressroom, 'publishDue');
    expect((await platform.client.getBot(botId)).name).toBe('Saturday stall');
    call(pressroom, 'deleteBot', { botId });
    await call(pressroom, 'publishDue');
    await expect(platform.client.getBot(botId)).rejects.toMatchObject({ kind: 'not_found' });
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 3, failed: 0 });
  });

  it('publishes queued products with exact prices, and refuses to queue a published one', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = testWorkspace({
      platform,
    });
    const product = pressroom.store.products.create({
      sku: 'NEW-1',
      name: 'Rye loaf',
      description: null,
      priceMinor: 1999,
      currency: 'USD',
      stock: 4,
      imageUrl: null,
    });
    call(pressroom, 'queueProducts', { ids: [product.id] });
    expect(pressroom.store.products.require(product.id).status).toBe('queued');
    await call(pressroom, 'publishDue');
    const published = pressroom.store.products.require(product.id);
    expect(published.status).toBe('published');
    const [remote] = (await platform.client.listProducts({ sku: 'NEW-1' })).items;
    expect(remote).toMatchObject({
      id: published.remoteId,
      price: '19.99',
      price_minor: 1999,
      stock: 4,
    });
    expect(thrownBy(() => call(pressroom, 'queueProducts', { ids: [product.id] }))).toBeInstanceOf(
      NotAllowed,
    );
    expect(() => call(pressroom, 'queueProducts', { ids: [] })).toThrow(
      'ids: choose at least one product',
    );
  });
});
