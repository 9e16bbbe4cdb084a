// The post editor's media list (browser): the media URLs as typed, one a line, read into lines
// with their previews, the ones whose preview would not load, and the checks the platform makes.
import type { Issue } from '../../../shared/contract';
import { isHttpUrl } from '../../../shared/url';

/** A post's media limit, as docs/platform-api.md reads Platform API v1 (Post). */
export const MEDIA_LIMIT = 10;

export interface MediaLine {
  url: string;
  valid: boolean;
  /** Only https images are previewed: the page's CSP allows no other remote images. */
  preview: boolean;
  /** The image would not load (not an image, gone, offline). */
  broken: boolean;
}

export function parseMedia(text: string, broken: readonly string[] = []): MediaLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((url) => {
      const valid = isHttpUrl(url);
      return {
        url,
        valid,
        preview: valid && url.startsWith('https:'),
        broken: broken.includes(url),
      };
    });
}

export class PostMedia {
  /** The URLs as the user typed them, one a line. */
  text = $state('');
  /** Preview URLs that would not load. */
  private broken = $state.raw<readonly string[]>([]);
  readonly lines = $derived(parseMedia(this.text, this.broken));

  constructor(urls: readonly string[] = []) {
    this.text = urls.join('\n');
  }

  /** The URLs as every call sends them. */
  get urls(): string[] {
    return this.lines.map((line) => line.url);
  }

  /** A preview image failed to load: say so in place of it. */
  previewFailed(url: string): void {
    if (!this.broken.includes(url)) this.broken = [...this.broken, url];
  }

  /** The lines that are no URL, and too many lines, as the platform would refuse them. */
  check(): Issue[] {
    const issues: Issue[] = [];
    this.lines.forEach((line, index) => {
      if (!line.valid)
        issues.push({
          field: `mediaUrls[${index}]`,
          message: `Media line ${index + 1} is not an http(s) URL`,
        });
    });
    if (this.lines.length > MEDIA_LIMIT)
      issues.push({
        field: 'mediaUrls',
        message: `The post has ${this.lines.length} media URLs; the platform takes at most ${MEDIA_LIMIT}`,
      });
    return issues;
  }
}
