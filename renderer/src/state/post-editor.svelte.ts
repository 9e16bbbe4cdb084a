// The post editor's state (browser): one post's fields, their checks (with wall times that a DST
// change skips or repeats handled explicitly), the calls each button makes, media previews, and
// AI assist with undo. The dialog and its parts only bind to this.
import { Temporal } from 'temporal-polyfill';
import type { AI_TASKS, CallResult, Issue, POST_MODES } from '../../../shared/contract';
import type { AiAssistReply, LocalPost, PostStatus } from '../../../shared/domain';
import { toInstant } from '../../../shared/time';
import { isHttpUrl } from '../../../shared/validation';
import { wallTime } from '../components/common/format';
import type { Shell } from './shell.svelte';

/** A post's text and media limits, as docs/platform-api.md reads Platform API v1 (Post). */
export const TEXT_LIMIT = 4096;
export const MEDIA_LIMIT = 10;

export type PostMode = (typeof POST_MODES)[number];
export type AiTask = (typeof AI_TASKS)[number];

/** Each status as text and an icon, so it never rests on colour alone. */
export const STATUS_MARKS: Record<PostStatus, { label: string; icon: string }> = {
  draft: { label: 'Draft', icon: '✎' },
  scheduled: { label: 'Scheduled', icon: '◷' },
  sending: { label: 'Sending', icon: '⇡' },
  published: { label: 'Published', icon: '✓' },
  failed: { label: 'Failed', icon: '⚠' },
  missed: { label: 'Missed', icon: '⌛' },
  handed_off: { label: 'Handed off', icon: '↪' },
};

/**
 * Why a post cannot be changed any more, or null while it can. It mirrors the core's rule (and
 * wording) so the calendar and editor can say so before a round trip; the core still decides.
 */
export function lockReason(post: LocalPost): string | null {
  if (post.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
  if (post.status === 'published')
    return 'It is published; API v1 has no way to change a published post';
  if (post.status === 'handed_off')
    return 'It was handed off: the platform publishes it, and API v1 cannot change it';
  if (post.status === 'sending') return 'It is being sent right now';
  return null;
}

/** Statuses a post can leave through queuePost (and be deleted from): it never went out. */
export const NOT_GONE_OUT: readonly PostStatus[] = ['draft', 'failed', 'missed'];

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

/** Which of the two readings of a wall time the clocks pass twice. */
export type Reading = 'earlier' | 'later';

/** What the date, time and zone fields say, read with DST in mind. */
export type WhenReading =
  | { kind: 'none' }
  | { kind: 'exact'; ms: number }
  /** The clocks skip this wall time; `after` is where they land instead ("03:30"). */
  | { kind: 'gap'; message: string; after: string }
  /** The clocks pass this wall time twice; the user picks one by its offset. */
  | { kind: 'overlap'; message: string; offsets: Record<Reading, string> }
  | { kind: 'invalid'; message: string };

/** Reads a date and time typed in `zone`; a DST gap or overlap is told apart, never guessed. */
export function readWhen(date: string, time: string, zone: string): WhenReading {
  if (!date && !time) return { kind: 'none' };
  if (!date || !time)
    return { kind: 'invalid', message: 'give both a date and a time, or neither' };
  const instant = toInstant(`${date}T${time}`, zone);
  if (instant.ok) return { kind: 'exact', ms: instant.ms };
  try {
    const wall = Temporal.PlainDateTime.from(`${date}T${time}`, { overflow: 'reject' });
    const earlier = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
    const later = wall.toZonedDateTime(zone, { disambiguation: 'later' });
    if (!later.toPlainDateTime().equals(wall)) {
      const after = later.toPlainTime().toString({ smallestUnit: 'minute' });
      return { kind: 'gap', message: instant.reason, after };
    }
    if (earlier.offset !== later.offset) {
      const offsets = { earlier: earlier.offset, later: later.offset };
      return { kind: 'overlap', message: instant.reason, offsets };
    }
  } catch {
    // Not a date or not a zone: toInstant's reason says so.
  }
  return { kind: 'invalid', message: instant.reason };
}

export const AI_BUTTONS: { task: AiTask; label: string }[] = [
  { task: 'draft', label: 'Draft' },
  { task: 'shorten', label: 'Shorten' },
  { task: 'rephrase', label: 'Rephrase' },
  { task: 'hashtags', label: 'Hashtags' },
];

export const MODE_LABELS: Record<PostMode, string> = {
  draft: 'Save draft',
  schedule: 'Schedule',
  publish_now: 'Publish now',
  hand_off: 'Hand off',
};

const MODE_DONE: Record<PostMode, string> = {
  draft: 'Draft saved',
  schedule: 'Post scheduled',
  publish_now: 'Post queued to publish now',
  hand_off: 'Post queued to hand off to the platform',
};

/** Where the editor starts: a post to edit, or the date and time of the calendar slot clicked. */
export interface EditorStart {
  post?: LocalPost;
  date?: string;
  time?: string;
}

type FieldName = 'text' | 'mediaUrls' | 'botId' | 'at' | 'zone';
const FIELDS: readonly FieldName[] = ['text', 'mediaUrls', 'botId', 'at', 'zone'];

export class PostEditor {
  post = $state.raw<LocalPost | null>(null);
  text = $state('');
  mediaText = $state('');
  botId = $state('');
  date = $state('');
  time = $state('');
  zone = $state('');
  /** Which reading of a wall time the clocks pass twice the user picked, if they had to. */
  reading = $state<Reading | ''>('');
  issues = $state.raw<Issue[]>([]);
  /** The core's message when it is not about one field. */
  failure = $state<string | null>(null);
  busy = $state(false);
  assisting = $state<AiTask | null>(null);
  reply = $state.raw<AiAssistReply | null>(null);
  assistError = $state<string | null>(null);
  private history = $state.raw<string[]>([]);
  /** Preview URLs that would not load. */
  private broken = $state.raw<readonly string[]>([]);

  /** What the platform counts: the trimmed text's UTF-16 length, as its schema checks it. */
  readonly length = $derived(this.text.trim().length);
  readonly tooLong = $derived(this.length > TEXT_LIMIT);
  readonly media = $derived(parseMedia(this.mediaText, this.broken));
  readonly when = $derived(readWhen(this.date, this.time, this.zone));
  readonly locked = $derived(this.post ? lockReason(this.post) : null);
  readonly title = $derived(this.post ? 'Edit post' : 'New post');
  readonly canUndo = $derived(this.history.length > 0);
  readonly canDelete = $derived(!!this.post && NOT_GONE_OUT.includes(this.post.status));
  /**
   * The buttons this post offers: a scheduled post stays in the queue and can only be saved at a
   * (new) time; a new post, draft, failed or missed one can go out any way.
   */
  readonly modes = $derived<PostMode[]>(
    this.locked
      ? []
      : this.post?.status === 'scheduled'
        ? ['schedule']
        : ['draft', 'schedule', 'publish_now', 'hand_off'],
  );

  constructor(
    private readonly shell: Shell,
    start: EditorStart = {},
  ) {
    const post = start.post ?? null;
    this.post = post;
    this.zone = post?.zone ?? shell.timezone;
    if (post) {
      this.text = post.text;
      this.mediaText = post.mediaUrls.join('\n');
      this.botId = post.botId ?? '';
      if (post.scheduledAt !== null) {
        const wall = wallTime(post.scheduledAt, this.zone);
        this.date = wall.slice(0, 10);
        this.time = wall.slice(11);
        // A saved time inside a repeated hour keeps the reading it was saved with.
        if (this.when.kind === 'overlap')
          this.reading = this.instantOf('earlier') === post.scheduledAt ? 'earlier' : 'later';
      }
    } else {
      this.botId = shell.settings?.defaultBotId ?? '';
      this.date = start.date ?? '';
      this.time = start.time ?? '';
    }
  }

  /** The problem with one field, as the checks here or the core found it. */
  issueFor(field: FieldName): string | undefined {
    const messages = this.issues
      .filter((issue) => issue.field === field || issue.field.startsWith(`${field}[`))
      .map((issue) => {
        const line = /^mediaUrls\[(\d+)\]$/.exec(issue.field)?.[1];
        return line === undefined ? issue.message : `line ${Number(line) + 1}: ${issue.message}`;
      });
    return messages.length > 0 ? messages.join('; ') : undefined;
  }

  /** Moves a time the clocks skip to where they land, as the editor offers. */
  useTimeAfterGap(): void {
    if (this.when.kind === 'gap') this.time = this.when.after;
  }

  private instantOf(reading: Reading): number | undefined {
    const when = this.when;
    if (when.kind !== 'overlap') return undefined;
    return Temporal.Instant.from(`${this.date}T${this.time}${when.offsets[reading]}`)
      .epochMilliseconds;
  }

  /** The time to send: a wall time in the zone, or with its offset when the clocks repeat it. */
  private get at(): string | undefined {
    const when = this.when;
    if (when.kind === 'exact') return `${this.date}T${this.time}`;
    if (when.kind === 'overlap' && this.reading)
      return `${this.date}T${this.time}${when.offsets[this.reading]}`;
    return undefined;
  }

  /** The checks that need no round trip; the core repeats them and more. */
  check(mode: PostMode, now = Date.now()): Issue[] {
    const issues: Issue[] = [];
    if (this.length === 0) issues.push({ field: 'text', message: 'must not be empty' });
    else if (this.tooLong)
      issues.push({ field: 'text', message: `must be at most ${TEXT_LIMIT} characters` });
    this.media.forEach((line, index) => {
      if (!line.valid)
        issues.push({ field: `mediaUrls[${index}]`, message: 'is not an http(s) URL' });
    });
    if (this.media.length > MEDIA_LIMIT)
      issues.push({ field: 'mediaUrls', message: `must have at most ${MEDIA_LIMIT} URLs` });
    const when = this.when;
    // Publishing now ignores the time of a new post, so only a time it keeps is checked.
    const needsTime = mode === 'schedule' || mode === 'hand_off';
    const keepsTime = this.post !== null || mode !== 'publish_now';
    if (when.kind === 'gap') {
      if (keepsTime)
        issues.push({
          field: 'at',
          message: 'is a time the clocks skip; pick another (see below)',
        });
    } else if (when.kind === 'invalid') {
      if (keepsTime) issues.push({ field: 'at', message: when.message });
    } else if (when.kind === 'overlap' && !this.reading) {
      if (keepsTime)
        issues.push({ field: 'at', message: 'pick which of the two times you mean (see below)' });
    } else if (when.kind === 'none') {
      if (needsTime)
        issues.push({
          field: 'at',
          message: `is required to ${mode === 'schedule' ? 'schedule' : 'hand off'} a post`,
        });
    } else if (needsTime) {
      const ms = when.kind === 'exact' ? when.ms : this.instantOf(this.reading || 'earlier');
      if (ms !== undefined && ms <= now)
        issues.push({
          field: 'at',
          message: 'is in the past; publish now instead, or pick a later time',
        });
    }
    return issues;
  }

  /** Saves the post the way the button says; returns it once saved (the dialog then closes). */
  async submit(mode: PostMode): Promise<LocalPost | undefined> {
    if (!this.modes.includes(mode) || this.busy) return undefined;
    this.issues = this.check(mode);
    this.failure = null;
    if (this.issues.length > 0) return undefined;
    this.busy = true;
    try {
      const saved = await this.save(mode);
      if (saved) this.shell.notices.show('success', MODE_DONE[mode]);
      return saved;
    } finally {
      this.busy = false;
    }
  }

  private async save(mode: PostMode): Promise<LocalPost | undefined> {
    const text = this.text.trim();
    const mediaUrls = this.media.map((line) => line.url);
    const post = this.post;
    if (!post) {
      // Publishing now ignores a time; sending one would record a time it did not go at.
      const at = mode === 'publish_now' ? undefined : this.at;
      return this.settle(
        await this.shell.api.addPost({
          text,
          zone: this.zone,
          mediaUrls,
          mode,
          ...(at ? { at } : {}),
          ...(this.botId ? { botId: this.botId } : {}),
        }),
      );
    }
    const updated = this.settle(
      await this.shell.api.updatePost({
        id: post.id,
        text,
        at: this.at ?? null,
        zone: this.zone,
        botId: this.botId || null,
        mediaUrls,
      }),
    );
    if (!updated) return undefined;
    this.post = updated;
    if (mode === 'draft' || !NOT_GONE_OUT.includes(updated.status)) return updated;
    return this.settle(await this.shell.api.queuePost({ id: post.id, mode }));
  }

  /** The value of a call, or undefined with its issues placed by their fields. */
  private settle<T>(result: CallResult<T>): T | undefined {
    if (result.ok) return result.value;
    const issues = result.error.issues ?? [];
    this.issues = issues;
    const placed = issues.some((issue) =>
      FIELDS.some((field) => issue.field === field || issue.field.startsWith(`${field}[`)),
    );
    this.failure = placed ? null : result.error.message;
    return undefined;
  }

  /** Deletes a post that never went out; true once it is gone. */
  async remove(): Promise<boolean> {
    const post = this.post;
    if (!post || !this.canDelete || this.busy) return false;
    this.busy = true;
    this.failure = null;
    try {
      const result = await this.shell.api.deletePost({ id: post.id });
      if (!result.ok) {
        this.failure = result.error.message;
        return false;
      }
      this.shell.notices.show('success', 'Post deleted');
      return true;
    } finally {
      this.busy = false;
    }
  }

  /** A preview image failed to load: say so in place of it. */
  previewFailed(url: string): void {
    if (!this.broken.includes(url)) this.broken = [...this.broken, url];
  }

  /**
   * Asks the AI; its answer replaces the text (hashtags are appended), and undo brings it back.
   * A failure leaves the text as it was and keeps the provider's message.
   */
  async assist(task: AiTask): Promise<void> {
    const source = this.text.trim();
    this.assistError = null;
    if (source === '') {
      this.assistError =
        task === 'draft'
          ? 'Write a brief in Text first; the AI drafts the post from it'
          : 'Write some text first';
      return;
    }
    this.assisting = task;
    try {
      const result = await this.shell.api.aiAssist({ task, text: source });
      if (!result.ok) {
        this.assistError = result.error.message;
        return;
      }
      const answer = result.value.text.trim();
      this.history = [...this.history, this.text];
      this.text = task === 'hashtags' ? `${this.text.trimEnd()}\n\n${answer}` : answer;
      this.reply = result.value;
    } finally {
      this.assisting = null;
    }
  }

  undo(): void {
    const previous = this.history.at(-1);
    if (previous === undefined) return;
    this.history = this.history.slice(0, -1);
    this.text = previous;
  }
}
