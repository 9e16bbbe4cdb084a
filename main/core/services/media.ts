// Uploaded pictures (Node, main process): takes a file the page or the command line read, keeps it
// in the workspace, gives lists and the calendar its thumbnail, and puts it on the user's media
// host when a post carrying it is published (docs/platform-api.md, "Media").
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaHost, CheckedInput } from '../../../shared/contract';
import type { MediaPicture, OperationResults } from '../../../shared/answers';
import type { MediaType } from '../../../shared/media';
import {
  MEDIA_MAX_BYTES,
  MEDIA_TYPES,
  THUMBNAIL_MAX_BYTES,
  localMediaFile,
  localMediaName,
  localMediaRef,
  picturesProblem,
  sniffMediaType,
} from '../../../shared/media';
import type { MediaStore } from '../../store/media';
import { InvalidInput } from '../errors';

const typeNames = Object.values(MEDIA_TYPES)
  .map((type) => type.extension.toUpperCase())
  .join(', ');

function dataUrl(type: MediaType, bytes: Uint8Array): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

export class MediaService {
  constructor(private readonly store: { media: MediaStore }) {}

  /** A picture the page read and sent, with the thumbnail it drew. */
  addMedia(input: CheckedInput<'addMedia'>): MediaPicture {
    const { fileName, contentBase64, thumbnailBase64 } = input;
    return this.add(
      fileName,
      Buffer.from(contentBase64, 'base64'),
      thumbnailBase64 === undefined ? null : Buffer.from(thumbnailBase64, 'base64'),
    );
  }

  describeMedia(input: CheckedInput<'describeMedia'>): MediaPicture[] {
    return this.describe(input.urls);
  }

  /** An uploaded picture's bytes (input checked by the operation table), for the page to draw. */
  readMedia({ url }: CheckedInput<'readMedia'>): OperationResults['readMedia'] {
    const name = localMediaName(url);
    const stored = name ? this.store.media.get(name) : undefined;
    const bytes = name && stored && this.store.media.bytes(name);
    if (!bytes)
      throw new InvalidInput([
        { field: 'url', message: `${url} is not among this workspace's uploaded pictures` },
      ]);
    return { fileName: stored.originalName, contentBase64: bytes.toString('base64') };
  }

  setMediaHost(input: CheckedInput<'setMediaHost'>): void {
    this.setHost(input.host);
  }

  /** Keeps a picture; `thumbnail`, when the page made one, is what lists and the calendar show. */
  add(fileName: string, bytes: Uint8Array, thumbnail: Uint8Array | null = null): MediaPicture {
    const type = sniffMediaType(bytes);
    if (!type)
      throw new InvalidInput([
        {
          field: 'contentBase64',
          message: `${fileName} is not a picture Pressroom can post (${typeNames})`,
        },
      ]);
    if (bytes.byteLength > MEDIA_MAX_BYTES)
      throw new InvalidInput([
        {
          field: 'contentBase64',
          message: `${fileName} is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MiB; the largest a post may carry is ${MEDIA_MAX_BYTES / 1024 / 1024} MiB`,
        },
      ]);
    const thumbnailType = thumbnail && sniffMediaType(thumbnail);
    if (thumbnail && (!thumbnailType || thumbnail.byteLength > THUMBNAIL_MAX_BYTES))
      throw new InvalidInput([
        {
          field: 'thumbnailBase64',
          message: `must be a ${typeNames} picture of at most ${THUMBNAIL_MAX_BYTES / 1024} KiB`,
        },
      ]);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const url = localMediaRef(hash, type);
    this.store.media.put({
      name: localMediaFile(hash, type),
      originalName: fileName,
      type,
      bytes,
      thumbnail: thumbnail && thumbnailType ? { type: thumbnailType, bytes: thumbnail } : null,
    });
    return { url, fileName, type, thumbnailUrl: this.thumbnailUrls([url]).get(url) ?? null };
  }

  /** A post's pictures as its editor shows them: names for uploaded ones, and thumbnails. */
  describe(urls: readonly string[]): MediaPicture[] {
    const shown = this.thumbnailUrls(urls);
    return urls.map((url) => {
      const name = localMediaName(url);
      const stored = name ? this.store.media.get(name) : undefined;
      return {
        url,
        fileName: stored?.originalName ?? null,
        type: stored?.type ?? null,
        thumbnailUrl: shown.get(url) ?? null,
      };
    });
  }

  /**
   * What a page can show for each of `urls`: an uploaded picture as its thumbnail, or the picture
   * itself when it is as small as a thumbnail. A web address is left out: the page never fetches
   * one (its CSP refuses them), so whoever wrote it into an imported file cannot learn who looked
   * at it, or when; the editor shows its address, and the user's browser opens it when asked.
   */
  thumbnailUrls(urls: readonly string[]): Map<string, string> {
    const shown = new Map<string, string>();
    const local = new Map<string, string>();
    for (const url of urls) {
      const name = localMediaName(url);
      if (name) local.set(name, url);
    }
    const thumbnails = this.store.media.thumbnails([...local.keys()]);
    for (const [name, url] of local) {
      const thumbnail = thumbnails.get(name);
      if (thumbnail) {
        shown.set(url, dataUrl(thumbnail.type, thumbnail.bytes));
        continue;
      }
      const media = this.store.media.get(name);
      const bytes = media && media.size <= THUMBNAIL_MAX_BYTES && this.store.media.bytes(name);
      if (media && bytes) shown.set(url, dataUrl(media.type, bytes));
    }
    return shown;
  }

  /** The first of a post's pictures a page can show, for its chip or row. */
  thumbnailUrl(urls: readonly string[]): string | null {
    const shown = this.thumbnailUrls(urls);
    return urls.map((url) => shown.get(url)).find((url) => url !== undefined) ?? null;
  }

  /** Each post's first picture a page can show, by its address: what calendar chips draw. */
  firstThumbnails(posts: readonly { mediaUrls: readonly string[] }[]): Record<string, string> {
    const shown = this.thumbnailUrls(posts.flatMap((post) => post.mediaUrls));
    const first: Record<string, string> = {};
    for (const post of posts) {
      const url = post.mediaUrls.find((candidate) => shown.has(candidate));
      if (url) first[url] = shown.get(url) ?? '';
    }
    return first;
  }

  host(): MediaHost | null {
    return this.store.media.host();
  }

  setHost(host: MediaHost | null): void {
    this.store.media.setHost(host);
  }

  /**
   * Why a post with these pictures cannot be published yet (as a field issue), or null: an
   * uploaded picture needs a media host, and must still be in the workspace.
   */
  publishProblem(urls: readonly string[]): { field: string; message: string } | null {
    const message = picturesProblem(
      urls,
      (name) => this.store.media.get(name) !== undefined,
      this.host() !== null,
    );
    return message === null ? null : { field: 'mediaUrls', message };
  }

  /**
   * The addresses to send for a post's pictures: each uploaded one is copied into the host's
   * folder (once; its name is its content's hash) and sent by its public address.
   */
  async publicUrls(urls: readonly string[]): Promise<string[]> {
    const problem = this.publishProblem(urls);
    if (problem) throw new Error(`The post's picture list ${problem.message}`);
    const host = this.host();
    if (!host) return [...urls];
    return Promise.all(
      urls.map(async (url) => {
        const name = localMediaName(url);
        if (!name) return url;
        await this.copyToHost(host, name);
        return new URL(encodeURIComponent(name), host.publicBaseUrl.replace(/\/?$/, '/')).href;
      }),
    );
  }

  private async copyToHost(host: MediaHost, name: string): Promise<void> {
    const target = join(host.folder, name);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    )
      return;
    const bytes = this.store.media.bytes(name);
    if (!bytes) throw new Error(`The uploaded picture ${name} is no longer in the workspace`);
    await mkdir(host.folder, { recursive: true });
    // Written aside and renamed, so a web server never serves half a picture.
    const partial = join(host.folder, `.${name}.${randomUUID()}.part`);
    await writeFile(partial, bytes);
    await rename(partial, target);
  }
}
