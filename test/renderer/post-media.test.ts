// The post editor's pictures (jsdom): the order calls send them in (typed lines first, so the
// core's mediaUrls[i] is line i + 1), files refused before any call (too big, not a picture, one
// too many), the same picture kept once, and the names of a reopened post's uploads.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationInput } from '../../shared/contract';
import { MEDIA_MAX_BYTES, localMediaRef } from '../../shared/media';
import { createApi } from '../../renderer/src/lib/api';
import { PostEditor } from '../../renderer/src/state/post-editor.svelte';
import { MEDIA_LIMIT, PostMedia, pastedFiles } from '../../renderer/src/state/post-media.svelte';
import { solidPng } from '../support/pictures';
import { FakeTransport, ok } from './fake-transport';
import { post, refused, shellWith, stubJsdom } from './post-editor-fixtures';

beforeAll(stubJsdom);

const png = (name: string, shade: number) =>
  new File([new Uint8Array(solidPng(2, 2, [shade, shade, shade]))], name, { type: 'image/png' });

/** The core's addMedia: the reference names the content's hash, so the same bytes are one picture. */
function addMedia(input: unknown) {
  const { fileName, contentBase64 } = input as OperationInput<'addMedia'>;
  const hash = createHash('sha256').update(Buffer.from(contentBase64, 'base64')).digest('hex');
  return ok({
    url: localMediaRef(hash, 'image/png'),
    fileName,
    type: 'image/png',
    thumbnailUrl: `data:image/png;base64,${contentBase64}`,
  });
}

function media(urls: string[] = [], answers: ConstructorParameters<typeof FakeTransport>[0] = {}) {
  const transport = new FakeTransport({ addMedia, ...answers });
  return { transport, media: new PostMedia(createApi(transport), urls) };
}

const UPLOADED = localMediaRef('a'.repeat(64), 'image/png');

describe("the post editor's pictures", () => {
  it('sends typed addresses first, then uploads, so the line numbers stay the core’s indexes', async () => {
    const { media: pictures } = media([UPLOADED, 'https://cdn.example/rye.jpg', 'not a url'], {
      describeMedia: () => ok([]),
    });
    expect(pictures.text).toBe('https://cdn.example/rye.jpg\nnot a url');
    expect(pictures.pictures.map((picture) => picture.url)).toEqual([UPLOADED]);
    await pictures.addFiles([png('croissant.png', 200)]);
    expect(pictures.urls.slice(0, 3)).toEqual([
      'https://cdn.example/rye.jpg',
      'not a url',
      UPLOADED,
    ]);
    expect(pictures.urls[3]).toMatch(/^pressroom-media:[0-9a-f]{64}\.png$/);
    expect(pictures.check()).toEqual([
      { field: 'mediaUrls[1]', message: 'Media line 2 is not an http(s) URL' },
    ]);
  });

  it('saves the post with its lines first and its uploads after, and names the core’s line', async () => {
    const { shell, transport } = await shellWith({
      addMedia,
      addPost: () =>
        refused('The post is not valid', [{ field: 'mediaUrls[0]', message: 'is not reachable' }]),
    });
    const editor = new PostEditor(shell, {});
    editor.fields.text = 'Fresh rye';
    await editor.media.addFiles([png('rye.png', 10)]);
    editor.media.text = 'https://cdn.example/rye.jpg';
    await editor.submit('draft');
    const [sent] = transport.callsOf('addPost') as { mediaUrls: string[] }[];
    expect(sent?.mediaUrls).toEqual(['https://cdn.example/rye.jpg', editor.media.pictures[0]?.url]);
    expect(editor.fields.issueFor('mediaUrls')).toBe('Media line 1: is not reachable');
  });

  it('refuses a file too big and a file that is not a picture before any call', async () => {
    const { media: pictures, transport } = media();
    const big = new File(
      [new Uint8Array(solidPng(2, 2, [0, 0, 0])), new Uint8Array(MEDIA_MAX_BYTES)],
      'oven.png',
      {
        type: 'image/png',
      },
    );
    const notes = new File(['flour, water, salt'], 'notes.png', { type: 'image/png' });
    await pictures.addFiles([big, notes, png('rye.png', 10)]);
    expect(pictures.uploadErrors).toEqual([
      '“oven.png” is 10.0 MiB; a picture may be at most 10 MiB',
      '“notes.png” is not a picture Pressroom can post (PNG, JPG, GIF or WebP)',
    ]);
    expect(transport.callsOf('addMedia')).toEqual([
      expect.objectContaining({ fileName: 'rye.png' }),
    ]);
    expect(pictures.pictures.map((picture) => picture.fileName)).toEqual(['rye.png']);
    // The next files clear the sentences about the last ones.
    await pictures.addFiles([png('bun.png', 20)]);
    expect(pictures.uploadErrors).toEqual([]);
  });

  it(`takes at most ${MEDIA_LIMIT} pictures, typed and uploaded together`, async () => {
    const typed = Array.from({ length: MEDIA_LIMIT - 2 }, (_, i) => `https://cdn.example/${i}.jpg`);
    const { media: pictures, transport } = media(typed);
    await pictures.addFiles([png('a.png', 1), png('b.png', 2), png('c.png', 3)]);
    expect(pictures.urls).toHaveLength(MEDIA_LIMIT);
    expect(pictures.uploadErrors).toEqual([
      `“c.png” was not added: a post carries at most ${MEDIA_LIMIT} pictures`,
    ]);
    expect(transport.callsOf('addMedia')).toHaveLength(2);
    expect(pictures.check()).toEqual([]);
  });

  it('adds pictures given while others are still being added after them, within the limit', async () => {
    const typed = Array.from({ length: MEDIA_LIMIT - 1 }, (_, i) => `https://cdn.example/${i}.jpg`);
    const { media: pictures, transport } = media(typed);
    // A drop, and a paste before the drop's picture is in.
    await Promise.all([
      pictures.addFiles([png('dropped.png', 1)]),
      pictures.addFiles([png('pasted.png', 2)]),
    ]);
    expect(pictures.pictures.map((picture) => picture.fileName)).toEqual(['dropped.png']);
    expect(pictures.uploadErrors).toEqual([
      `“pasted.png” was not added: a post carries at most ${MEDIA_LIMIT} pictures`,
    ]);
    expect(transport.callsOf('addMedia')).toHaveLength(1);
  });

  it('says so when a call fails outright, and takes the next files', async () => {
    let calls = 0;
    const { media: pictures } = media([], {
      addMedia: (input) => {
        if (++calls === 1) throw new Error('the window is closing');
        return addMedia(input);
      },
    });
    await pictures.addFiles([png('rye.png', 10), png('bun.png', 20)]);
    expect(pictures.uploadErrors).toEqual(['“rye.png” was not added (the window is closing)']);
    expect(pictures.pictures.map((picture) => picture.fileName)).toEqual(['bun.png']);
    expect(pictures.uploading).toBe(0);
    await pictures.addFiles([png('rye.png', 10)]);
    expect(pictures.pictures).toHaveLength(2);
  });

  it('keeps the same picture once, however often it is given', async () => {
    const { media: pictures } = media();
    await pictures.addFiles([png('rye.png', 10), png('rye again.png', 10)]);
    await pictures.addFiles([png('rye.png', 10)]);
    expect(pictures.pictures.map((picture) => picture.fileName)).toEqual(['rye.png']);
    expect(pictures.uploadErrors).toEqual([]);
    pictures.remove(pictures.pictures[0]!.url);
    expect(pictures.urls).toEqual([]);
  });

  it('says why the core refused a picture in its words, without its field names', async () => {
    const why = 'rye.png is not a picture Pressroom can post (PNG, JPG, GIF, WEBP)';
    const { media: pictures } = media([], {
      addMedia: () => refused(`contentBase64: ${why}`, [{ field: 'contentBase64', message: why }]),
    });
    await pictures.addFiles([png('rye.png', 10)]);
    expect(pictures.uploadErrors).toEqual([why]);
    expect(pictures.pictures).toEqual([]);
  });

  it("names a reopened post's uploads and shows their thumbnails once the core describes them", async () => {
    const other = localMediaRef('b'.repeat(64), 'image/png');
    const { shell, transport } = await shellWith({
      describeMedia: (input) =>
        ok(
          (input as { urls: string[] }).urls.map((url, i) => ({
            url,
            fileName: `picture ${i + 1}.png`,
            type: 'image/png',
            thumbnailUrl: `data:image/png;base64,${i}`,
          })),
        ),
    });
    const editor = new PostEditor(shell, {
      post: post({ id: 7, mediaUrls: ['https://cdn.example/rye.jpg', UPLOADED, other] }),
    });
    // At once the pictures are there, unnamed; the names follow the core's answer.
    expect(editor.media.pictures.map((picture) => picture.fileName)).toEqual([null, null]);
    await expect
      .poll(() => editor.media.pictures.map((picture) => picture.fileName))
      .toEqual(['picture 1.png', 'picture 2.png']);
    expect(transport.callsOf('describeMedia')).toEqual([{ urls: [UPLOADED, other] }]);
    expect(editor.media.pictures[1]?.thumbnailUrl).toBe('data:image/png;base64,1');
    expect(editor.media.urls).toEqual(['https://cdn.example/rye.jpg', UPLOADED, other]);
  });

  it('takes a pasted picture, but not the picture a spreadsheet copies beside text pasted into a field', () => {
    const file = png('cells.png', 30);
    /** What a paste carries (jsdom has no DataTransfer). */
    const clipboard = (text: string) =>
      ({
        files: [file],
        getData: (type: string) => (type === 'text/plain' ? text : ''),
      }) as unknown as DataTransfer;
    expect(pastedFiles(clipboard(''), true)).toEqual([file]);
    expect(pastedFiles(clipboard('Rye\t3.80'), true)).toEqual([]);
    expect(pastedFiles(clipboard('Rye\t3.80'), false)).toEqual([file]);
    expect(pastedFiles(null, true)).toEqual([]);
  });
});
