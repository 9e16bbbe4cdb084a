// The post editor's fields (browser): one post's text, bot, date, time and zone, their checks
// (with wall times that a DST change skips or repeats handled explicitly), the core's refusals
// placed by field, and whether the bot's posting schedule lets the queue buttons work.
import { postLockReason } from '../../../shared/domain';
import { Temporal } from 'temporal-polyfill';
import type { POST_MODES } from '../../../shared/contract';
import type { CallResult, Issue } from '../../../shared/answers';
import type { BotSchedule, LocalPost } from '../../../shared/domain';
import { LIMITS } from '../../../shared/limits';
import { hasSlots } from '../../../shared/schedule';
import { formatDateTime, wallTime } from '../lib/format';
import type { PostMedia } from './post-media.svelte';
import { canDelete, canMoveToDrafts } from './post-actions';
import { readWhen } from './post-when';
import type { Reading } from './post-when';
import type { Shell } from './shell.svelte';

/** A post's text limit, as docs/platform-api.md reads Platform API v1 (Post). */
export const TEXT_LIMIT = LIMITS.postText;

export type PostMode = (typeof POST_MODES)[number];

/** Where a post goes by its bot's posting schedule: its next free slot, or the queue's front. */
export type QueueAction = 'add' | 'next';

export const QUEUE_LABELS: Record<QueueAction, string> = {
  add: 'Add to queue',
  next: 'Put first in the queue',
};

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

type FieldName = 'text' | 'mediaUrls' | 'botId' | 'at' | 'zone';

/** What each field is called in a message, so no error is left without its subject. */
const SUBJECTS: Record<FieldName, string> = {
  text: 'The text',
  mediaUrls: 'The media',
  botId: 'The bot',
  at: 'The date and time',
  zone: 'The time zone',
};

/** The field an issue is about ("mediaUrls[2]" is about mediaUrls), or null for none of ours. */
function fieldOf(issue: Issue): FieldName | null {
  const field = issue.field.replace(/\[\d+\]$/, '');
  return field in SUBJECTS ? (field as FieldName) : null;
}

/** An issue as a sentence with its subject: "Media line 2: …", "The bot: …". */
function withSubject(issue: Issue): Issue {
  const line = /^mediaUrls\[(\d+)\]$/.exec(issue.field)?.[1];
  const field = fieldOf(issue);
  const subject =
    line !== undefined ? `Media line ${Number(line) + 1}` : field ? SUBJECTS[field] : null;
  return subject ? { ...issue, message: `${subject}: ${issue.message}` } : issue;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

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
  /** The last answer about a bot's posting schedule, for the queue buttons. */
  private schedule = $state.raw<{ botId: string; result: CallResult<BotSchedule> } | null>(null);

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
  /**
   * The one main button: Schedule once a date and time is set (always for a queued post, which
   * stays in the queue), else Save draft; the other ways out are in the menu.
   */
  readonly primary = $derived<PostMode | null>(
    this.modes.includes('draft') && this.when.kind === 'none'
      ? 'draft'
      : this.modes.includes('schedule')
        ? 'schedule'
        : null,
  );
  /** Why the queue buttons cannot be used now, or null when they can. */
  readonly queueBlocked = $derived.by((): string | null => {
    if (!this.queueBot) return 'Choose a bot first: a post joins its bot’s posting schedule';
    const schedule = this.schedule;
    if (schedule?.botId !== this.queueBot) return 'Reading the bot’s posting schedule…';
    if (!schedule.result.ok)
      return `Could not read the bot’s posting schedule: ${schedule.result.error.message}`;
    if (!hasSlots(schedule.result.value.days))
      return 'This bot has no posting schedule yet; set one on the Bots screen';
    if (schedule.result.value.nextFree.length === 0)
      return 'This bot’s posting schedule has no free slot within a year';
    return null;
  });
  /** What the queue buttons would do now, or why they cannot; they point at it for its reason. */
  readonly queueNote = $derived.by(() => {
    const { add, next } = QUEUE_LABELS;
    const schedule = this.schedule?.result;
    if (this.queueBlocked || !schedule?.ok) return `${add} and ${next}: ${this.queueBlocked}.`;
    const zone = this.shell.timezone;
    const slot = formatDateTime(schedule.value.nextFree[0] ?? null, zone);
    return (
      `${add} takes the bot’s next free slot, ${slot} (${zone}); ` +
      `${next} gives the post that slot and moves the queued posts after it one slot later.`
    );
  });

  constructor(
    private readonly shell: Shell,
    private readonly media: PostMedia,
    start: EditorStart = {},
  ) {
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

  /** Reads the schedule of the bot the queue buttons would use; a stale answer is dropped. */
  private async loadSchedule(): Promise<void> {
    const botId = this.queueBot;
    // A post that can no longer change offers no queue buttons.
    if (!botId || this.locked || this.schedule?.botId === botId) return;
    const result = await this.shell.api.getSchedule({ botId });
    if (botId === this.queueBot) this.schedule = { botId, result };
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
