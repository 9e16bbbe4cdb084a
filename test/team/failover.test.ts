// Every desktop of a team holds the team's scheduled posts in its own outbox: when the author's
// laptop sleeps, another desktop publishes the post; a post one desktop published is settled on
// the others from the team server's result, without a send; desktops racing publish each post once.
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import { postsOnPlatform, queuedOn, teamDesktop } from '../support/team-desktop';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

async function desktops(platform: TestPlatform, count: number): Promise<Workspace[]> {
  team = await startTestTeam();
  const tokens = [
    team.ownerToken,
    ...Array.from({ length: count - 1 }, () => team!.invite('editor')),
  ];
  const made = tokens.map((token) => teamDesktop(team!, platform, token));
  await Promise.all(made.map((desktop) => desktop.team!.connection.whenSynced()));
  return made;
}

/** Schedules a post on `author` through the one door, due `inMs` from now. */
function schedule(author: Workspace, text: string, inMs: number): number {
  const at = new Date(Date.now() + inMs).toISOString();
  return call(author, 'addPost', { text, botId: 'bot_1', at, mode: 'schedule' }).id;
}

describe('team posts in every desktop’s outbox', () => {
  it('publishes the post of an author whose laptop went to sleep from the other desktop', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const [author, other] = await desktops(platform, 2);
    schedule(author!, 'Written before the lid closed', 800);
    const onOther = await queuedOn(other!, 'Written before the lid closed');
    author!.close();

    const item = other!.store.outbox.latestForPost(onOther)!;
    expect(item.state).toBe('queued');
    await until(() => Date.now() > item.dueAt + 50, 3000, 'the post to be due');
    await other!.queue.publishDue();

    expect(await postsOnPlatform(platform, 'Written before the lid closed')).toBe(1);
    expect(other!.store.outbox.latestForPost(onOther)!.state).toBe('done');
    expect(other!.store.posts.get(onOther)!.status).toBe('published');
  });

  it('settles a post another desktop published as published here, without sending it', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const [author, other] = await desktops(platform, 2);
    const onAuthor = schedule(author!, 'Sent by the author', 300);
    const onOther = await queuedOn(other!, 'Sent by the author');
    await until(() => Date.now() > other!.store.outbox.latestForPost(onOther)!.dueAt + 50);
    await author!.queue.publishDue();
    const remoteId = author!.store.posts.get(onAuthor)!.remoteId;
    expect(remoteId).toBeTruthy();

    await until(
      () => other!.store.outbox.latestForPost(onOther)!.state === 'done',
      3000,
      'the result to settle the other desktop’s item',
    );
    expect(other!.store.posts.get(onOther)).toMatchObject({ status: 'published', remoteId });
    expect(other!.store.outbox.latestForPost(onOther)!.attempts).toBe(0);
    expect(await postsOnPlatform(platform, 'Sent by the author')).toBe(1);
  });

  it('three desktops racing publish each post exactly once, on a platform that ignores Idempotency-Key', async () => {
    // Spec-literal: every POST makes a post, so the platform's count is the count of POSTs.
    const platform = await startTestPlatform({ seed: 'demo', quirks: { specLiteral: true } });
    const three = await desktops(platform, 3);
    const texts = Array.from({ length: 6 }, (_, n) => `Raced post ${n}`);
    texts.forEach((text, n) => schedule(three[n % 3]!, text, 600));
    const items = await Promise.all(
      three.flatMap((desktop) =>
        texts.map(async (text) => ({ desktop, id: await queuedOn(desktop, text) })),
      ),
    );
    const settled = () =>
      items.every(({ desktop, id }) => desktop.store.outbox.latestForPost(id)!.state === 'done');
    const started = Date.now();
    while (!settled() && Date.now() - started < 15_000) {
      await Promise.all(three.map((desktop) => desktop.queue.publishDue()));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(settled()).toBe(true);
    for (const text of texts) expect(await postsOnPlatform(platform, text)).toBe(1);
    const remoteIds = (id: number, desktop: Workspace) => desktop.store.posts.get(id)!.remoteId;
    for (const text of texts) {
      const ids = items.filter((entry) => entry.desktop.store.posts.get(entry.id)!.text === text);
      expect(new Set(ids.map(({ desktop, id }) => remoteIds(id, desktop))).size).toBe(1);
    }
  });
});

describe('team products on the platform', () => {
  it('creates a shared product on the platform once, though two desktops publish it at once', async () => {
    // Spec-literal: the platform keeps no Idempotency-Key. No team lease is needed: the platform
    // refuses a second product of one SKU (409 duplicate_sku with existing_id), and the publisher
    // links the existing one (docs/team.md, "Products").
    const platform = await startTestPlatform({ seed: 'demo', quirks: { specLiteral: true } });
    const [ann, bea] = await desktops(platform, 2);
    const product = call(ann!, 'saveProduct', {
      sku: 'TEAM-1',
      name: 'Shared loaf',
      price: '3.50',
      currency: 'EUR',
    });
    const idOf = () =>
      (
        bea!.store.db.prepare("SELECT id FROM products WHERE sku = 'TEAM-1'").get() as
          { id: number } | undefined
      )?.id;
    await until(() => idOf() !== undefined, 3000, 'the product on Bea’s desktop');
    call(ann!, 'queueProducts', { ids: [product.id] });
    call(bea!, 'queueProducts', { ids: [idOf()!] });

    const settled = () =>
      [ann!.store.products.get(product.id)!, bea!.store.products.get(idOf()!)!].every(
        (row) => row.remoteId !== null,
      );
    const started = Date.now();
    while (!settled() && Date.now() - started < 15_000) {
      await Promise.all([ann!.queue.publishDue(), bea!.queue.publishDue()]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(settled()).toBe(true);
    const listed = await platform.client.listProducts({ per_page: 200 });
    expect(listed.items.filter((item) => item.sku === 'TEAM-1')).toHaveLength(1);
    expect(bea!.store.products.get(idOf()!)!.remoteId).toBe(
      ann!.store.products.get(product.id)!.remoteId,
    );
  });
});
