// Pictures from the command line, as a user runs them: `media add` prints the reference a post
// takes, a post carrying it is not queued until a media host is set, `media host` sets, shows and
// clears it, and `publish` copies the picture into the host's folder and sends its address.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MediaPicture } from '../../shared/answers';
import { offlineWorkspace, runCli } from '../support/cli';
import { solidPng } from '../support/pictures';
import { startTestPlatform } from '../support/platform';

const RYE = solidPng(3, 2, [120, 70, 30]);
const REF = /^pressroom-media:[0-9a-f]{64}\.png$/;

/** Files in a new folder, by name. */
function filesIn(files: Record<string, Buffer | string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-pictures-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return folder;
}

describe('cli media', () => {
  it('adds a picture, and a post with it waits for a media host, which is set, shown and cleared', async () => {
    const { env } = offlineWorkspace('media');
    const folder = filesIn({ 'rye.png': RYE, 'notes.png': 'flour, water, salt' });

    const added = await runCli(['media', 'add', join(folder, 'rye.png')], env);
    expect(added.code).toBe(0);
    const [ref, name] = added.stdout.trim().split(/\s+/);
    expect(ref).toMatch(REF);
    expect(name).toBe('rye.png');
    const again = await runCli(['media', 'add', join(folder, 'rye.png'), '--json'], env);
    expect(JSON.parse(again.stdout)).toEqual([
      expect.objectContaining({ url: ref, fileName: 'rye.png', type: 'image/png' }),
    ]);
    const notPicture = await runCli(['media', 'add', join(folder, 'notes.png')], env);
    expect(notPicture.code).toBe(2);
    expect(notPicture.stderr).toBe(
      'pressroom: contentBase64: notes.png is not a picture Pressroom can post (PNG, JPG, GIF, WEBP)\n',
    );

    const missing = await runCli(['media', 'add', join(folder, 'gone.png')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`pressroom: ${join(folder, 'gone.png')} does not exist\n`);

    const post = ['posts', 'add', '--text', 'Rye', '--bot', 'bot_1', '--media', ref!];
    const refused = await runCli([...post, '--mode', 'publish_now'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'pressroom: mediaUrls: has an uploaded picture, and the platform takes pictures only by web address: set a media host first (pressroom media host --folder DIR --url URL)\n',
    );
    // A draft may carry it: only publishing needs the host.
    const draft = await runCli([...post, '--mode', 'draft'], env);
    expect(draft.code).toBe(0);
    expect((await runCli(['media', 'host'], env)).stdout).toBe(
      'No media host: posts with uploaded pictures cannot be published until one is set (media host --folder DIR --url URL)\n',
    );

    const half = await runCli(['media', 'host', '--url', 'https://cdn.example/bakery/'], env);
    expect(half.code).toBe(2);
    expect(half.stderr).toBe(
      'pressroom: Give both --folder and --url to set the media host, --clear to forget it, or neither to show it\n',
    );
    const set = await runCli(
      ['media', 'host', '--folder', folder, '--url', 'https://cdn.example/bakery/'],
      env,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toBe(
      `Uploaded pictures are copied into ${folder} and published as https://cdn.example/bakery/<name>\n`,
    );
    expect(JSON.parse((await runCli(['media', 'host', '--json'], env)).stdout)).toEqual({
      host: { folder, publicBaseUrl: 'https://cdn.example/bakery/' },
    });
    const queued = await runCli([...post, '--mode', 'publish_now', '--allow-duplicate'], env);
    expect(queued.code).toBe(0);

    const cleared = await runCli(['media', 'host', '--clear', '--json'], env);
    expect(JSON.parse(cleared.stdout)).toEqual({ host: null });
  });

  it('publishes an uploaded picture by its address on the media host', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { env: offline } = offlineWorkspace('media-publish');
    const env = {
      ...offline,
      PRESSROOM_API_BASE: platform.server.baseUrl,
      PRESSROOM_API_TOKEN: platform.server.token,
    };
    const pictures = filesIn({ 'rye.png': RYE });
    const host = mkdtempSync(join(tmpdir(), 'pressroom-media-host-'));
    const [picture] = JSON.parse(
      (await runCli(['media', 'add', join(pictures, 'rye.png'), '--json'], env)).stdout,
    ) as MediaPicture[];
    await runCli(['media', 'host', '--folder', host, '--url', 'https://cdn.example/b'], env);
    const added = await runCli(
      ['posts', 'add', '--text', 'Rye with a picture', '--bot', 'bot_1', '--mode', 'publish_now'],
      env,
    );
    expect(added.code).toBe(0);
    const withPicture = await runCli(
      [
        'posts',
        'add',
        '--text',
        'Rye, pictured',
        '--bot',
        'bot_1',
        '--mode',
        'publish_now',
        '--media',
        picture!.url,
        'https://cdn.example/elsewhere.jpg',
      ],
      env,
    );
    expect(withPicture.code).toBe(0);
    const published = await runCli(['publish', '--json'], env);
    expect(JSON.parse(published.stdout)).toMatchObject({ published: 2, failed: 0 });

    const name = picture!.url.replace('pressroom-media:', '');
    expect(readFileSync(join(host, name))).toEqual(RYE);
    const sent = (await platform.client.listPosts({ per_page: 100 })).items.find(
      (post) => post.text === 'Rye, pictured',
    );
    // The address is under the host's URL whether or not it was given with its last slash.
    expect(sent?.media_urls).toEqual([
      `https://cdn.example/b/${name}`,
      'https://cdn.example/elsewhere.jpg',
    ]);
  });
});
