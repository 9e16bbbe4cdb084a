// The post editor's pictures (browser): web addresses as typed, one a line, with their previews,
// and pictures uploaded into Pressroom (chosen, dropped or pasted), each with its thumbnail; the
// checks the platform makes on the whole list.
import type { Issue, MediaPicture } from '../../../shared/answers';
import { LIMITS } from '../../../shared/limits';
import { MEDIA_MAX_BYTES, MEDIA_TYPES, isLocalMedia, sniffMediaType } from '../../../shared/media';
import { isHttpUrl } from '../../../shared/url';
import type { Api } from '../lib/api';
import { blobFromBase64, drawThumbnail, readAsBase64 } from '../lib/files';

/** A post's media limit, as docs/platform-api.md reads Platform API v1 (Post). */
export const MEDIA_LIMIT = LIMITS.postMediaUrls;

/** What a file input offers to pick: the pictures a post can carry. */
export const PICTURE_TYPES = Object.keys(MEDIA_TYPES).join(',');

const TYPE_NAMES = 'PNG, JPG, GIF or WebP';

export interface MediaLine {
  url: string;
  /**
   * A web address is never previewed in the page (its CSP refuses remote pictures): whoever
   * wrote it, an imported file's author say, would learn who looked and when. The user opens it.
   */
  valid: boolean;
}

export function parseMedia(text: string): MediaLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((url) => ({ url, valid: isHttpUrl(url) }));
}

/** Why a file cannot be a post's picture, before it is sent anywhere; null when it can. */
export async function pictureProblem(file: File): Promise<string | null> {
  if (file.size > MEDIA_MAX_BYTES)
    return `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MiB; a picture may be at most ${MEDIA_MAX_BYTES / 1024 / 1024} MiB`;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffMediaType(head)
    ? null
    : `“${file.name}” is not a picture Pressroom can post (${TYPE_NAMES})`;
}

/** Whether a drag carries files (while dragging, the browser hides which). */
export function carriesFiles(transfer: DataTransfer | null): boolean {
  return transfer?.types.includes('Files') ?? false;
}

/** The files a drop carries. */
export function filesIn(transfer: DataTransfer | null): File[] {
  return transfer ? [...transfer.files] : [];
}

/**
 * The pictures a paste adds: none when text is pasted into a text field, since spreadsheets and
 * word processors copy a picture of what was copied beside its text.
 */
export function pastedFiles(transfer: DataTransfer | null, intoTextField: boolean): File[] {
  if (intoTextField && (transfer?.getData('text/plain') ?? '').trim() !== '') return [];
  return filesIn(transfer);
}

export class PostMedia {
  /** The web addresses as the user typed them, one a line. */
  text = $state('');
  readonly lines = $derived(parseMedia(this.text));
  /** Pictures uploaded into Pressroom, in the order they were added. */
  pictures = $state.raw<MediaPicture[]>([]);
  /** How many files are being read and sent, or wait their turn. */
  uploading = $state(0);
  /** Why files the user gave were not added, one sentence each; cleared by the next files. */
  uploadErrors = $state.raw<string[]>([]);
  /** The files given before, being added; the next ones wait for it. */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: Pick<Api, 'addMedia' | 'describeMedia' | 'readMedia'>,
    urls: readonly string[] = [],
  ) {
    this.text = urls.filter((url) => !isLocalMedia(url)).join('\n');
    const uploaded = urls.filter(isLocalMedia);
    this.pictures = uploaded.map((url) => ({
      url,
      fileName: null,
      type: null,
      thumbnailUrl: null,
    }));
    if (uploaded.length > 0) void this.describe(uploaded);
  }

  /** Every picture as calls send them: typed addresses first (their line numbers), then uploads. */
  get urls(): string[] {
    return [...this.lines.map((line) => line.url), ...this.pictures.map((picture) => picture.url)];
  }

  /**
   * Adds the pictures among `files`, saying for each other file why it was not added. Files given
   * while others are being added wait their turn, so the picture limit counts every one before.
   */
  addFiles(files: readonly File[]): Promise<void> {
    this.uploading += files.length;
    this.turn = this.turn.then(() => this.addInTurn(files));
    return this.turn;
  }

  /** Never fails: each file either is added or has its sentence (the next files wait for it). */
  private async addInTurn(files: readonly File[]): Promise<void> {
    this.uploadErrors = [];
    const errors: string[] = [];
    for (const file of files) {
      try {
        const error = await this.add(file);
        if (error) errors.push(error);
      } catch (error) {
        errors.push(
          `“${file.name}” was not added (${error instanceof Error ? error.message : String(error)})`,
        );
      } finally {
        this.uploading--;
      }
    }
    this.uploadErrors = errors;
  }

  remove(url: string): void {
    this.pictures = this.pictures.filter((picture) => picture.url !== url);
  }

  /** The lines that are no URL, and too many pictures, as the platform would refuse them. */
  check(): Issue[] {
    const issues: Issue[] = [];
    this.lines.forEach((line, index) => {
      if (!line.valid)
        issues.push({
          field: `mediaUrls[${index}]`,
          message: `Media line ${index + 1} is not an http(s) URL`,
        });
    });
    const count = this.urls.length;
    if (count > MEDIA_LIMIT)
      issues.push({
        field: 'mediaUrls',
        message: `The post has ${count} pictures; the platform takes at most ${MEDIA_LIMIT}`,
      });
    return issues;
  }

  private async add(file: File): Promise<string | null> {
    if (this.urls.length >= MEDIA_LIMIT)
      return `“${file.name}” was not added: a post carries at most ${MEDIA_LIMIT} pictures`;
    const problem = await pictureProblem(file);
    if (problem) return problem;
    let contentBase64: string;
    let thumbnail: Blob | null;
    try {
      [contentBase64, thumbnail] = await Promise.all([readAsBase64(file), drawThumbnail(file)]);
    } catch (error) {
      return `“${file.name}” could not be read (${error instanceof Error ? error.message : String(error)})`;
    }
    const result = await this.api.addMedia({
      fileName: file.name,
      contentBase64,
      ...(thumbnail ? { thumbnailBase64: await readAsBase64(thumbnail) } : {}),
    });
    // The core's sentences name the file; its field names mean nothing to the user.
    if (!result.ok)
      return result.error.issues?.map((issue) => issue.message).join('; ') ?? result.error.message;
    const added = result.value;
    if (!this.pictures.some((picture) => picture.url === added.url))
      this.pictures = [...this.pictures, added];
    return null;
  }

  /** Names and thumbnails of the pictures a post had when the editor opened. */
  private async describe(urls: string[]): Promise<void> {
    const result = await this.api.describeMedia({ urls });
    if (!result.ok) return; // the pictures stay, shown without a name or thumbnail
    this.replace(result.value);
    // A picture kept without a thumbnail (the command line cannot draw one) gets it drawn here.
    for (const picture of result.value)
      if (picture.type !== null && picture.thumbnailUrl === null) await this.drawMissing(picture);
  }

  /** Draws an uploaded picture's thumbnail and keeps it with the picture; on failure shows none. */
  private async drawMissing(picture: MediaPicture): Promise<void> {
    const read = await this.api.readMedia({ url: picture.url });
    if (!read.ok || picture.type === null) return;
    const thumbnail = await drawThumbnail(blobFromBase64(read.value.contentBase64, picture.type));
    if (!thumbnail) return;
    const kept = await this.api.addMedia({
      fileName: read.value.fileName ?? picture.fileName ?? 'picture',
      contentBase64: read.value.contentBase64,
      thumbnailBase64: await readAsBase64(thumbnail),
    });
    if (kept.ok) this.replace([kept.value]);
  }

  /** The pictures as `described` says, by address; the others as they were. */
  private replace(described: readonly MediaPicture[]): void {
    this.pictures = this.pictures.map(
      (picture) => described.find((found) => found.url === picture.url) ?? picture,
    );
  }
}
