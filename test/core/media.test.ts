// Uploaded pictures: told apart by their bytes, kept once, shown by their thumbnail, and put on
// the media host's folder under their hash when a post carrying them is published.
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { call, invokeFromRenderer } from '../../main/core/operations';
import { MediaService } from '../../main/core/services/media';
import { WorkspaceStore } from '../../main/store';
import { MEDIA_MAX_BYTES, sniffMediaType } from '../../shared/media';
import { startTestPlatform } from '../support/platform';
import { uploaded } from '../support/uploads';
import { openDemoSession } from '../support/session';

/** A 1×1 PNG, byte for byte. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1');
const WAVE = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1');

function media() {
  const store = WorkspaceStore.open();
  return { store, service: new MediaService(store) };
}

describe('uploaded pictures', () => {
  it('are told apart by their first bytes, not their name', () => {
    expect(sniffMediaType(PNG)).toBe('image/png');
    expect(sniffMediaType(JPEG)).toBe('image/jpeg');
    expect(sniffMediaType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffMediaType(WEBP)).toBe('image/webp');
    expect(sniffMediaType(WAVE)).toBeNull(); // RIFF, but sound
    expect(sniffMediaType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('are kept once per content, named by its hash, and shown as themselves when small', () => {
    const { store, service } = media();
    const added = service.add('Shop front.png', PNG);
    expect(added).toMatchObject({
      fileName: 'Shop front.png',
      type: 'image/png',
    });
    expect(added.url).toMatch(/^pressroom-media:[0-9a-f]{64}\.png$/);
    expect(added.thumbnailUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(service.add('copy.png', PNG).url).toBe(added.url);
    expect(store.db.prepare('SELECT COUNT(*) AS n, SUM(size) AS bytes FROM media').get()).toEqual({
      n: 1,
      bytes: PNG.length,
    });
    store.close();
  });

  it('show the thumbnail the page made, and leave out what a page cannot show', () => {
    const { store, service } = media();
    const big = Buffer.concat([JPEG, Buffer.alloc(200 * 1024)]);
    const withoutThumbnail = service.add('big.jpg', big);
    expect(withoutThumbnail.thumbnailUrl).toBeNull();
    const withThumbnail = service.add('big.jpg', big, PNG);
    expect(withThumbnail.thumbnailUrl).toMatch(/^data:image\/png;base64,/);
    expect(
      service.thumbnailUrl([
        'http://example.com/a.png',
        withThumbnail.url,
        'https://cdn.example/b.jpg',
      ]),
    ).toBe(withThumbnail.thumbnailUrl);
    // A web address is never handed to the page to fetch: its author would see who looked.
    expect(service.thumbnailUrl(['https://cdn.example/b.jpg'])).toBeNull();
    expect(service.thumbnailUrl(['http://example.com/a.png'])).toBeNull();
    store.close();
  });

  it('hand the page a picture’s bytes to draw its thumbnail, and only an uploaded one', () => {
    const { store, service } = media();
    const big = Buffer.concat([JPEG, Buffer.alloc(200 * 1024)]);
    const added = service.add('stall.jpg', big);
    expect(service.readMedia({ url: added.url })).toEqual({
      fileName: 'stall.jpg',
      contentBase64: big.toString('base64'),
    });
    const unknown = `pressroom-media:${'0'.repeat(64)}.png`;
    expect(() => service.readMedia({ url: unknown })).toThrow(
      /is not among this workspace's uploaded pictures/,
    );
    expect(() => service.readMedia({ url: 'https://cdn.example/b.jpg' })).toThrow(
      /is not among this workspace's uploaded pictures/,
    );
    store.close();
  });

  it('refuse what is not a picture, what is too big, and a thumbnail that is not small', () => {
    const { store, service } = media();
    expect(() => service.add('notes.png', Buffer.from('just text'))).toThrow(
      /notes\.png is not a picture Pressroom can post \(PNG, JPG, GIF, WEBP\)/,
    );
    const huge = Buffer.concat([PNG, Buffer.alloc(MEDIA_MAX_BYTES)]);
    expect(() => service.add('huge.png', huge)).toThrow(
      /huge\.png is 10\.0 MiB; the largest a post may carry is 10 MiB/,
    );
    expect(() => service.add('a.png', PNG, Buffer.concat([PNG, Buffer.alloc(65 * 1024)]))).toThrow(
      /thumbnailBase64: must be a PNG, JPG, GIF, WEBP picture of at most 64 KiB/,
    );
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM media').get()).toEqual({ n: 0 });
    store.close();
  });

  it('need a media host to be published, and go there once under their hash', async () => {
    const { store, service } = media();
    const { url } = service.add('Shop front.png', PNG);
    const urls = [url, 'https://cdn.example/b.jpg'];
    expect(service.publishProblem(urls)?.message).toMatch(
      /has an uploaded picture, and the platform takes pictures only by web address: set a media host first/,
    );
    await expect(service.publicUrls(urls)).rejects.toThrow(/set a media host first/);
    expect(service.publishProblem(['pressroom-media:' + '0'.repeat(64) + '.png'])?.message).toMatch(
      /is not among this workspace's uploaded pictures/,
    );

    const folder = join(mkdtempSync(join(tmpdir(), 'pressroom-host-')), 'public', 'media');
    service.setHost({ folder, publicBaseUrl: 'https://shop.example/media' });
    expect(service.publishProblem(urls)).toBeNull();
    const name = url.slice('pressroom-media:'.length);
    expect(await service.publicUrls(urls)).toEqual([
      `https://shop.example/media/${name}`,
      'https://cdn.example/b.jpg',
    ]);
    expect(readdirSync(folder)).toEqual([name]); // nothing half-written left beside it
    expect(readFileSync(join(folder, name))).toEqual(PNG);
    const written = statSync(join(folder, name)).mtimeMs;
    await service.publicUrls(urls);
    expect(statSync(join(folder, name)).mtimeMs).toBe(written);
    store.close();
  });
});

describe('a post with an uploaded picture', () => {
  it('is refused a place in the queue until a media host is set, then published by its public address, which the demo web space serves', async () => {
    const mediaFolder = mkdtempSync(join(tmpdir(), 'pressroom-demo-media-'));
    const platform = await startTestPlatform({ seed: 'demo', mediaFolder });
    const pressroom = testWorkspace({
      platform,
    });
    const picture = call(pressroom, 'addMedia', {
      fileName: 'rye.png',
      contentBase64: PNG.toString('base64'),
    });
    const post = { text: 'Rye, with a picture', botId: 'bot_1', mediaUrls: [picture.url] };
    expect(() => call(pressroom, 'addPost', { ...post, mode: 'publish_now' })).toThrow(
      /mediaUrls: has an uploaded picture, and the platform takes pictures only by web address/,
    );
    // A draft may carry it: only publishing needs the host.
    const draft = call(pressroom, 'addPost', { ...post, mode: 'draft' });
    expect(pressroom.store.outbox.list()).toEqual([]);

    const publicBaseUrl = `${platform.server.origin}/demo-media/`;
    call(pressroom, 'setMediaHost', { host: { folder: mediaFolder, publicBaseUrl } });
    call(pressroom, 'queuePost', { id: draft.id, mode: 'publish_now' });
    await pressroom.queue.publishUntilEmpty();

    const name = picture.url.slice('pressroom-media:'.length);
    const sent = await platform.client.listPosts({ per_page: 200 });
    const published = sent.items.find((remote) => remote.text === post.text);
    expect(published?.media_urls).toEqual([`${publicBaseUrl}${name}`]);
    const served = await fetch(`${publicBaseUrl}${name}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    // Only pictures by their hashed names: nothing else in or beside the folder.
    for (const path of ['../demo-platform.sqlite', '%2e%2e%2fsecret.png', 'notes.txt'])
      expect((await fetch(`${publicBaseUrl}${path}`)).status).toBe(404);

    expect(call(pressroom, 'describeMedia', { urls: [picture.url] })).toEqual([
      {
        url: picture.url,
        fileName: 'rye.png',
        type: 'image/png',
        thumbnailUrl: picture.thumbnailUrl,
      },
    ]);
    expect(
      call(pressroom, 'listQueue', {}).find((row) => row.postId === draft.id)?.thumbnailUrl,
    ).toBe(picture.thumbnailUrl);
  });

  it('shows its thumbnail on the calendar, and a scheduled one keeps its place only with a host', () => {
    const pressroom = testWorkspace();
    const picture = pressroom.media.add('rye.png', PNG);
    const at = Date.now() + 3_600_000;
    const post = call(pressroom, 'addPost', {
      text: 'Scheduled, pictures later',
      botId: 'bot_1',
      at: new Date(at).toISOString(),
      zone: 'UTC',
    });
    expect(() => call(pressroom, 'updatePost', { id: post.id, mediaUrls: [picture.url] })).toThrow(
      /set a media host first/,
    );
    pressroom.media.setHost({ folder: tmpdir(), publicBaseUrl: 'https://shop.example/media/' });
    call(pressroom, 'updatePost', {
      id: post.id,
      mediaUrls: [picture.url, 'https://cdn.example/b.jpg'],
    });
    const range = call(pressroom, 'getCalendar', { from: at - 1, to: at + 1, zone: 'UTC' });
    expect(range.posts.map((shown) => shown.id)).toEqual([post.id]);
    expect(range.thumbnails).toEqual({ [picture.url]: picture.thumbnailUrl });
  });
});

describe('uploaded pictures in a CSV export', () => {
  it('come back on import into the same workspace, and a row that would go out with one needs a media host', async () => {
    const pressroom = testWorkspace();
    const picture = pressroom.media.add('rye.png', PNG);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    call(pressroom, 'addPost', {
      text: 'Rye, exported',
      botId: 'bot_1',
      mediaUrls: [picture.url],
      at,
      zone: 'UTC',
      mode: 'draft',
    });
    const { csv } = await call(pressroom, 'exportText', { kind: 'posts' });
    expect(csv).toContain(picture.url);
    const unknown = `pressroom-media:${'0'.repeat(64)}.png`;
    const file = csv
      .replace('Rye, exported', 'Rye, imported')
      .concat(`Rye with a lost picture,${at},UTC,bot_1,${unknown}\r\n`);
    const upload = async (queue: boolean) =>
      call(pressroom, 'importUpload', {
        kind: 'posts',
        upload: await uploaded(pressroom, 'posts.csv', file),
        onError: 'skip',
        queue,
      });

    const scheduled = await upload(true);
    expect(scheduled.errors).toMatchObject([
      {
        row: 2,
        column: 'media_urls',
        message: expect.stringMatching(
          /^has an uploaded picture, and the platform takes pictures only by web address: set a media host first/,
        ),
      },
      {
        row: 3,
        column: 'media_urls',
        message: expect.stringMatching(
          /^pressroom-media:0{64}\.png is not among this workspace's uploaded pictures/,
        ),
      },
    ]);
    const drafts = await upload(false);
    expect(drafts.inserted).toBe(1);
    expect(drafts.errors).toHaveLength(1);
    const imported = call(pressroom, 'listPosts', {}).find((post) => post.text === 'Rye, imported');
    expect(imported?.mediaUrls).toEqual([picture.url]);
  });
});

describe('choosing the media host in the desktop app', () => {
  it('takes the folder its native dialog picks, keeps the host when the dialog is closed, and in a browser names the command instead', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-web-space-'));
    const picks: (string | null)[] = [folder, null];
    const titles: string[] = [];
    const { session } = await openDemoSession({
      pickFolder: (title) => (titles.push(title), Promise.resolve(picks.shift() ?? null)),
    });
    const choose = (publicBaseUrl: string) =>
      invokeFromRenderer(session, 'chooseMediaFolder', { publicBaseUrl });
    expect(await choose('not an address')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', issues: [{ field: 'publicBaseUrl' }] },
    });
    expect(titles).toEqual([]); // refused before any dialog
    const host = { folder, publicBaseUrl: 'https://shop.example/media/' };
    expect(await choose(host.publicBaseUrl)).toEqual({ ok: true, value: host });
    expect(titles).toEqual(['The folder your web space serves pictures from']);
    expect(await choose('https://elsewhere.example/')).toEqual({ ok: true, value: null });
    expect(await invokeFromRenderer(session, 'getMediaHost', {})).toEqual({
      ok: true,
      value: host,
    });

    const { session: browser } = await openDemoSession();
    expect(
      await invokeFromRenderer(browser, 'chooseMediaFolder', { publicBaseUrl: host.publicBaseUrl }),
    ).toMatchObject({
      ok: false,
      error: {
        kind: 'not_allowed',
        message: expect.stringContaining('media host --folder DIR --url URL'),
      },
    });
  });
});
