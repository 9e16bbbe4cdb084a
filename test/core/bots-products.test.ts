// Bot changes and product publishing through the outbox, against the reference server.
import { describe, expect, it } from 'vitest';
import { NotAllowed } from '../../main/core/errors';
import { Pressroom } from '../../main/core/pressroom';
import { startTestPlatform } from '../support/platform';

describe('bots and products through the outbox', () => {
  it('creates, renames and deletes a bot', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = new Pressroom({
      dbFile: ':memory:',
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
    });
    const created = pressroom.bots.createBot({ name: 'Market stall', channel: 'telegram' });
    await pressroom.queue.publishDue();
    const botId = pressroom.store.outbox.require(created.id).remoteId ?? '';
    expect(await platform.client.getBot(botId)).toMatchObject({
      name: 'Market stall',
      channel: 'telegram',
    });
    pressroom.bots.renameBot({ botId, name: 'Saturday stall' });
    await pressroom.queue.publishDue();
    expect((await platform.client.getBot(botId)).name).toBe('Saturday stall');
    pressroom.bots.deleteBot({ botId });
    await pressroom.queue.publishDue();
    await expect(platform.client.getBot(botId)).rejects.toMatchObject({ kind: 'not_found' });
    expect(pressroom.queue.status().outbox).toMatchObject({ done: 3, failed: 0 });
    pressroom.close();
  });

  it('publishes queued products with exact prices, and refuses to queue a published one', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = new Pressroom({
      dbFile: ':memory:',
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
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
    pressroom.catalog.queueProducts({ ids: [product.id] });
    expect(pressroom.store.products.require(product.id).status).toBe('queued');
    await pressroom.queue.publishDue();
    const published = pressroom.store.products.require(product.id);
    expect(published.status).toBe('published');
    const [remote] = (await platform.client.listProducts({ sku: 'NEW-1' })).items;
    expect(remote).toMatchObject({
      id: published.remoteId,
      price: '19.99',
      price_minor: 1999,
      stock: 4,
    });
    expect(() => pressroom.catalog.queueProducts({ ids: [product.id] })).toThrow(NotAllowed);
    expect(() => pressroom.catalog.queueProducts({ ids: [] })).toThrow(
      'ids: choose at least one product',
    );
    pressroom.close();
  });
});
