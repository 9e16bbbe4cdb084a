// The post editor's fields (browser): one post's text, bot, date, time and zone, their checks
// (with wall times that a DST change skips or repeats handled explicitly), the core's refusals
// placed by field, and whether the bot's posting schedule lets the queue buttons work. Their
// sentences are in post-words.ts, the schedule's reading in post-bot-schedule.svelte.ts.
import { postLockReason } from '../../../shared/domain';
import { Temporal } from 'temporal-polyfill';
import type { POST_MODES } from '../../../shared/contract';
import type { CallResult, Issue } from '../../../shared/answers';
import type { LocalPost } from '../../../shared/domain';
import { LIMITS } from '../../../shared/limits';
import { wallTime } from '../lib/format';
import { BotScheduleReader } from './post-bot-schedule.svelte';
import type { PostMedia } from './post-media.svelte';
import { canDelete, canMoveToDrafts } from './post-actions';
import { readWhen } from './post-when';
import type { Reading } from './post-when';
import {
  capitalised,
  fieldOf,
  queueBlockedBy,
  queueNoteOf,
  withSubject,
  type FieldName,
} from './post-words';
import type { Shell } from './shell.svelte';

/** A post's text limit, as docs/platform-api.md reads Platform API v1 (Post). */
export const TEXT_LIMIT = LIMITS.postText;

export type PostMode = (typeof POST_MODES)[number];

/**
 * Where the editor starts: a post to edit, or the date and time of the calendar slot clicked (and
 * the bot whose free slot it is).
 */
export interface EditorStart {
  post?: LocalPost;
  date?: string;
  time?: string;
  botId?: string;
}

/** A core refusal at a field, kept with what the field said then: it clears once that changes. */
interface Refusal {
  issue: Issue;
  value: string;
}

export class PostFields {
  post = $state.raw<LocalPost | null>(null);
  text = $state('');
  private chosenBot = $state('');
  date = $state('');
  time = $state('');
  zone = $state('');
  /** Which reading of a wall time the clocks pass twice the user picked, if they had to. */
  reading = $state<Reading | ''>('');
  /**
   * What the user last tried (a mode, or a queue button): from then on the checks re-run as they
   * type, so an error clears the moment its field is right.
   */
  private tried = $state<PostMode | 'queue' | null>(null);
  private refusals = $state.raw<Refusal[]>([]);
  /** The core's message when it is not about one field. */
  failure = $state<string | null>(null);
  /** What the fields said when the editor opened ('' for a copy, which is unsaved work). */
  private startedAs = $state('');
  /** The posting schedule of the bot the queue buttons use, as last read. */
  private readonly schedule: BotScheduleReader;

  /** What the platform counts: the trimmed text's UTF-16 length, as its schema checks it. */
  readonly length = $derived(this.text.trim().length);
  readonly tooLong = $derived(this.length > TEXT_LIMIT);
  readonly when = $derived(readWhen(this.date, this.time, this.zone));
  readonly locked = $derived(this.post ? postLockReason(this.post) : null);
  readonly title = $derived(this.post ? 'Edit post' : 'New post');
  /** The problems to show: the checks of what was tried, and the core's refusals still standing. */
  readonly issues = $derived.by((): Issue[] => {
    const tried = this.tried;
    const local = tried === null ? [] : tried === 'queue' ? this.checkContent() : this.check(tried);
    const standing = this.refusals
      .filter((refusal) => this.valueOf(fieldOf(refusal.issue)) === refusal.value)
      .map((refusal) => refusal.issue);
    return [...local, ...standing];
  });
  /** Whether closing now would throw away something the user typed, picked or added. */
  readonly changed = $derived(this.snapshot() !== this.startedAs);
  /** A post that never went out can be deleted, a scheduled one too until it is being sent. */
  readonly canDelete = $derived(!!this.post && canDelete(this.post));
  readonly canMoveToDrafts = $derived(!!this.post && canMoveToDrafts(this.post));
  /**
   * The buttons this post offers: a scheduled post stays in the queue, saved at a (new) time, or
   * goes now instead; a new post, draft, failed or missed one can go out any way.
   */
  readonly modes = $derived<PostMode[]>(
    this.locked
      ? []
      : this.post?.status === 'scheduled'
        ? ['schedule', 'publish_now']
        : ['draft', 'schedule', 'publish_now', 'hand_off'],
  );
  /**
   * The one main button: Schedule once a date and time is set (always for a queued post, which
   * stays in the queue), else Save draft; a failed or missed post whose time has passed goes out
   * by Publish now (Schedule would refuse a time gone by). The other ways out are in the menu.
   */
  readonly primary = $derived<PostMode | null>(
    this.modes.includes('draft') && this.when.kind === 'none'
      ? 'draft'
      : this.overdue()
        ? 'publish_now'
        : this.modes.includes('schedule')
          ? 'schedule'
          : null,
  );
  /** A failed or missed post still set at a time that has passed (this computer's clock). */
  private overdue(): boolean {
    const status = this.post?.status;
    if (status !== 'failed' && status !== 'missed') return false;
    return this.when.kind === 'exact' && this.when.ms <= Date.now();
  }
  /** Why the queue buttons cannot be used now, or null when they can. */
  readonly queueBlocked = $derived.by(() => queueBlockedBy(this.queueBot, this.schedule.answer));
  /** What the queue buttons would do now, or why they cannot; they point at it for its reason. */
  readonly queueNote = $derived.by(() =>
    queueNoteOf(this.queueBlocked, this.schedule.answer?.result ?? null, this.shell.timezone),
  );

  constructor(
    private readonly shell: Shell,
    private readonly media: PostMedia,
    start: EditorStart = {},
  ) {
    this.schedule = new BotScheduleReader(shell.api);
    const post = start.post ?? null;
    this.post = post;
    this.zone = post?.zone ?? shell.timezone;
    if (post) {
      this.text = post.text;
      this.chosenBot = post.botId ?? '';
      if (post.scheduledAt !== null) {
        const wall = wallTime(post.scheduledAt, this.zone);
        this.date = wall.slice(0, 10);
        this.time = wall.slice(11);
        // A saved time inside a repeated hour keeps the reading it was saved with.
        if (this.when.kind === 'overlap')
          this.reading = this.instantOf('earlier') === post.scheduledAt ? 'earlier' : 'later';
      }
    } else {
      this.chosenBot = start.botId ?? shell.settings?.defaultBotId ?? '';
      this.date = start.date ?? '';
      this.time = start.time ?? '';
    }
    this.startedAs = this.snapshot();
    void this.loadSchedule();
  }

  private snapshot(): string {
    const { text, chosenBot, date, time, zone, reading } = this;
    return JSON.stringify([text, chosenBot, date, time, zone, reading, this.media.urls]);
  }

  /** The bot the queue buttons use: the chosen one, else (as the core does) the default bot. */
  get queueBot(): string | null {
    return this.chosenBot || this.shell.settings?.defaultBotId || null;
  }

  /** The workspace's default bot, which a post without a bot goes out with. */
  get defaultBotId(): string | null {
    return this.shell.settings?.defaultBotId ?? null;
  }

  /** The bot chosen ('' for none, or the default bot for a new post). */
  get botId(): string {
    return this.chosenBot;
  }

  set botId(botId: string) {
    this.chosenBot = botId;
    void this.loadSchedule();
  }

  /** Reads the schedule of the bot the queue buttons would use. */
  private loadSchedule(): Promise<void> {
    // A post that can no longer change offers no queue buttons.
    if (this.locked) return Promise.resolve();
    return this.schedule.read(this.queueBot, () => this.queueBot);
  }

  /** The problem with one field, as the checks here or the core found it, in sentences. */
  issueFor(field: FieldName): string | undefined {
    const messages = this.issues
      .filter((issue) => fieldOf(issue) === field)
      .map((issue) => issue.message);
    return messages.length > 0 ? messages.join('. ') : undefined;
  }

  /** What a field says now, to tell whether the core's refusal of it still stands. */
  private valueOf(field: FieldName | null): string {
    if (field === 'text') return this.text;
    if (field === 'mediaUrls') return this.media.urls.join('\n');
    if (field === 'botId') return this.chosenBot;
    if (field === 'at') return `${this.date}T${this.time}${this.reading}`;
    if (field === 'zone') return this.zone;
    return '';
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
  get at(): string | undefined {
    const when = this.when;
    if (when.kind === 'exact') return `${this.date}T${this.time}`;
    if (when.kind === 'overlap' && this.reading)
      return `${this.date}T${this.time}${when.offsets[this.reading]}`;
    return undefined;
  }

  /** The trimmed text and the media URLs, as every call sends them. */
  content(): { text: string; mediaUrls: string[] } {
    return { text: this.text.trim(), mediaUrls: this.media.urls };
  }

  /** The user tried a button: its checks run from now on, and the last answer's refusals go. */
  attempt(tried: PostMode | 'queue'): void {
    this.tried = tried;
    this.refusals = [];
    this.failure = null;
  }

  /** The editor becomes a new post with these fields: nothing tried yet, nothing refused. */
  detach(): void {
    this.post = null;
    this.startedAs = '';
    this.tried = null;
    this.refusals = [];
    this.failure = null;
  }

  /** The value of a call, or undefined with its issues placed by their fields. */
  settle<T>(result: CallResult<T>): T | undefined {
    if (result.ok) return result.value;
    const issues = result.error.issues ?? [];
    this.refusals = issues.map((issue) => ({
      issue: withSubject(issue),
      value: this.valueOf(fieldOf(issue)),
    }));
    const placed = issues.some((issue) => fieldOf(issue) !== null);
    this.failure = placed ? null : result.error.message;
    return undefined;
  }

  /** The checks that need no round trip; the core repeats them and more. */
  check(mode: PostMode, now = Date.now()): Issue[] {
    return [...this.checkContent(), ...this.checkWhen(mode, now)];
  }

  /** The text and media checks every button needs. */
  checkContent(): Issue[] {
    const issues: Issue[] = [];
    if (this.length === 0) issues.push({ field: 'text', message: 'Write the post’s text' });
    else if (this.tooLong)
      issues.push({
        field: 'text',
        message: `The text is ${this.length - TEXT_LIMIT} characters too long; the platform takes at most ${TEXT_LIMIT}`,
      });
    return [...issues, ...this.media.check()];
  }

  /** The date and time checks of a mode; the queue buttons pick the time themselves. */
  private checkWhen(mode: PostMode, now: number): Issue[] {
    const issues: Issue[] = [];
    const when = this.when;
    // Publishing now ignores the time of a new post, so only a time it keeps is checked.
    const needsTime = mode === 'schedule' || mode === 'hand_off';
    const keepsTime = this.post !== null || mode !== 'publish_now';
    if (when.kind === 'gap') {
      if (keepsTime)
        issues.push({
          field: 'at',
          message: 'The clocks skip this time; pick another (see below)',
        });
    } else if (when.kind === 'invalid') {
      if (keepsTime) issues.push({ field: 'at', message: capitalised(when.message) });
    } else if (when.kind === 'overlap' && !this.reading) {
      if (keepsTime)
        issues.push({ field: 'at', message: 'Pick which of the two times you mean (see below)' });
    } else if (when.kind === 'none') {
      if (needsTime)
        issues.push({
          field: 'at',
          message:
            mode === 'schedule'
              ? 'Pick a date and time to schedule the post'
              : 'Pick a date and time for the platform to publish the post',
        });
    } else if (needsTime) {
      const ms = when.kind === 'exact' ? when.ms : this.instantOf(this.reading || 'earlier');
      if (ms !== undefined && ms <= now)
        issues.push({
          field: 'at',
          message: 'The date and time are in the past; publish now instead, or pick a later time',
        });
    }
    return issues;
  }
}
