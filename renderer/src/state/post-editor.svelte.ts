// The post editor's state (browser): one post's fields, their checks (with wall times that a DST
// change skips or repeats handled explicitly), the calls each button makes (add to queue and
// share next among them, with the chosen bot's posting schedule), media previews, and AI assist
// with undo. The dialog and its parts only bind to this.
import { Temporal } from 'temporal-polyfill';
import type { AI_TASKS, CallResult, Issue, POST_MODES } from '../../../shared/contract';
import type {
  AiAssistReply,
  BotSchedule,
  LocalPost,
  PostStatus,
  SharedNext,
} from '../../../shared/domain';
import { hasSlots } from '../../../shared/schedule';
import { toInstant } from '../../../shared/time';
import { isHttpUrl } from '../../../shared/url';
import { formatDateTime, wallTime } from '../components/common/format';
import type { Overrule } from './duplicates.svelte';
import type { Shell } from './shell.svelte';
import { LIMITS } from '../../../shared/limits';

/** A post's text and media limits, as docs/platform-api.md reads Platform API v1 (Post). */
export const TEXT_LIMIT = LIMITS.postText;
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

/** Plain names: "hand off" is what API v1 calls letting the platform publish it. */
export const MODE_LABELS: Record<PostMode, string> = {
  draft: 'Save draft',
  schedule: 'Schedule',
  publish_now: 'Publish now',
  hand_off: 'Let the platform publish it at this time',
};

const MODE_DONE: Record<PostMode, string> = {
  draft: 'Draft saved',
  schedule: 'Post scheduled',
  publish_now: 'Post queued to publish now',
  hand_off: 'Post queued to hand off to the platform',
};

/** Where a post goes by its bot's posting schedule: its next free slot, or the queue's front. */
export type QueueAction = 'add' | 'next';

export const QUEUE_LABELS: Record<QueueAction, string> = {
  add: 'Add to queue',
  next: 'Share next',
};

/** What each queue button does, in a few words beside its name in the menu. */
export const QUEUE_HINTS: Record<QueueAction, string> = {
  add: 'next free slot',
  next: 'before the queue',
};

/** What the user is told once a post is in the queue: when it goes out, and what moved for it. */
export function queuedMessage(action: QueueAction, placed: SharedNext, zone: string): string {
  const when = (ms: number) => `${formatDateTime(ms, zone)} (${zone})`;
  const goes = `it goes out ${when(placed.post.scheduledAt ?? Date.now())}`;
  if (action === 'add') return `Added to the queue: ${goes}`;
  const { moved } = placed;
  if (moved.length === 0) return `Shared next: ${goes}`;
  // A long run of moved posts is summed up after the first few.
  const shown = moved
    .slice(0, 3)
    .map((move) => `post ${move.id} to ${formatDateTime(move.to, zone)}`);
  const rest = moved.length - shown.length;
  const count = moved.length === 1 ? '1 queued post' : `${moved.length} queued posts`;
  const list = `${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
  return `Shared next: ${goes}. ${count} moved one slot later: ${list}`;
}

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

/**
 * The first whole hour after `now` on the zone's wall clock, where a post written from the New post
 * button (or `c`) starts: scheduling is what the editor is mostly for, so it opens with a time near
 * now that Schedule accepts at once (clearing the date makes the main action Save draft). Adding an
 * hour of exact time lands on a wall time that exists, whatever the clocks do.
 */
export function nextWholeHour(zone: string, now = Date.now()): { date: string; time: string } {
  const wall = Temporal.Instant.fromEpochMilliseconds(now)
    .toZonedDateTimeISO(zone)
    .round({ smallestUnit: 'hour', roundingMode: 'floor' })
    .add({ hours: 1 })
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' });
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
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

export class PostEditor {
  post = $state.raw<LocalPost | null>(null);
  text = $state('');
  mediaText = $state('');
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
  busy = $state(false);
  assisting = $state<AiTask | null>(null);
  reply = $state.raw<AiAssistReply | null>(null);
  assistError = $state<string | null>(null);
  private history = $state.raw<string[]>([]);
  /** Preview URLs that would not load. */
  private broken = $state.raw<readonly string[]>([]);
  /** The last answer about a bot's posting schedule, for the queue buttons. */
  private schedule = $state.raw<{ botId: string; result: CallResult<BotSchedule> } | null>(null);

  /** What the platform counts: the trimmed text's UTF-16 length, as its schema checks it. */
  readonly length = $derived(this.text.trim().length);
  readonly tooLong = $derived(this.length > TEXT_LIMIT);
  readonly media = $derived(parseMedia(this.mediaText, this.broken));
  readonly when = $derived(readWhen(this.date, this.time, this.zone));
  readonly locked = $derived(this.post ? lockReason(this.post) : null);
  readonly title = $derived(this.post ? 'Edit post' : 'New post');
  readonly canUndo = $derived(this.history.length > 0);
  /** The problems to show: the checks of what was tried, and the core's refusals still standing. */
  readonly issues = $derived.by((): Issue[] => {
    const tried = this.tried;
    const local = tried === null ? [] : tried === 'queue' ? this.checkContent() : this.check(tried);
    const standing = this.refusals
      .filter((refusal) => this.valueOf(fieldOf(refusal.issue)) === refusal.value)
      .map((refusal) => refusal.issue);
    return [...local, ...standing];
  });
  /** A post that never went out can be deleted, a scheduled one too until it is being sent. */
  readonly canDelete = $derived(
    !!this.post && [...NOT_GONE_OUT, 'scheduled'].includes(this.post.status),
  );
  readonly canMoveToDrafts = $derived(this.post?.status === 'scheduled');
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
  /** Why Add to queue and Share next cannot be used now, or null when they can. */
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
      `${next} puts the post first and moves the queued posts after it one slot later.`
    );
  });

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
    void this.loadSchedule();
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
    if (field === 'mediaUrls') return this.mediaText;
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
  private get at(): string | undefined {
    const when = this.when;
    if (when.kind === 'exact') return `${this.date}T${this.time}`;
    if (when.kind === 'overlap' && this.reading)
      return `${this.date}T${this.time}${when.offsets[this.reading]}`;
    return undefined;
  }

  /** The checks that need no round trip; the core repeats them and more. */
  check(mode: PostMode, now = Date.now()): Issue[] {
    return [...this.checkContent(), ...this.checkWhen(mode, now)];
  }

  /** The text and media checks every button needs. */
  private checkContent(): Issue[] {
    const issues: Issue[] = [];
    if (this.length === 0) issues.push({ field: 'text', message: 'Write the post’s text' });
    else if (this.tooLong)
      issues.push({
        field: 'text',
        message: `The text is ${this.length - TEXT_LIMIT} characters too long; the platform takes at most ${TEXT_LIMIT}`,
      });
    this.media.forEach((line, index) => {
      if (!line.valid)
        issues.push({
          field: `mediaUrls[${index}]`,
          message: `Media line ${index + 1} is not an http(s) URL`,
        });
    });
    if (this.media.length > MEDIA_LIMIT)
      issues.push({
        field: 'mediaUrls',
        message: `The post has ${this.media.length} media URLs; the platform takes at most ${MEDIA_LIMIT}`,
      });
    return issues;
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

  /** Saves the post the way the button says; returns it once saved (the dialog then closes). */
  async submit(mode: PostMode): Promise<LocalPost | undefined> {
    if (!this.modes.includes(mode) || this.busy) return undefined;
    this.tried = mode;
    this.refusals = [];
    this.failure = null;
    if (this.check(mode).length > 0) return undefined;
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
    const post = this.post;
    if (!post) {
      // Publishing now ignores a time; sending one would record a time it did not go at.
      const at = mode === 'publish_now' ? undefined : this.at;
      return this.guarded((overrule) =>
        this.shell.api.addPost({
          ...this.content(),
          zone: this.zone,
          mode,
          ...(at ? { at } : {}),
          ...(this.botId ? { botId: this.botId } : {}),
          ...overrule,
        }),
      );
    }
    const updated = await this.update(post, { at: this.at ?? null });
    if (!updated) return undefined;
    if (mode === 'draft' || !NOT_GONE_OUT.includes(updated.status)) return updated;
    return this.guarded((overrule) => this.shell.api.queuePost({ id: post.id, mode, ...overrule }));
  }

  /** The trimmed text and the media URLs, as every call sends them. */
  private content(): { text: string; mediaUrls: string[] } {
    return { text: this.text.trim(), mediaUrls: this.media.map((line) => line.url) };
  }

  /** Saves the fields to a post that exists; `at` is left out when the queue picks the time. */
  private async update(
    post: LocalPost,
    when: { at?: string | null },
  ): Promise<LocalPost | undefined> {
    const updated = await this.guarded((overrule) =>
      this.shell.api.updatePost({
        id: post.id,
        ...this.content(),
        ...when,
        zone: this.zone,
        botId: this.botId || null,
        ...overrule,
      }),
    );
    if (updated) this.post = updated;
    return updated;
  }

  /**
   * Puts the post in its bot's queue: its next free slot ("add"), or the front ("next"), saving
   * the fields first for a post that exists. Returns it once placed (the dialog then closes); the
   * notice says when it goes out.
   */
  async queue(action: QueueAction): Promise<LocalPost | undefined> {
    if (this.locked || this.queueBlocked || this.busy) return undefined;
    this.tried = 'queue';
    this.refusals = [];
    this.failure = null;
    if (this.checkContent().length > 0) return undefined;
    this.busy = true;
    try {
      const placed = await this.place(action);
      if (placed)
        this.shell.notices.show(
          'success',
          queuedMessage(action, placed, this.shell.timezone),
          10_000,
        );
      return placed?.post;
    } finally {
      this.busy = false;
    }
  }

  private async place(action: QueueAction): Promise<SharedNext | undefined> {
    const post = this.post;
    let target: { id: number } | { text: string; mediaUrls: string[]; botId?: string };
    if (post) {
      if (!(await this.update(post, {}))) return undefined;
      target = { id: post.id };
    } else target = { ...this.content(), ...(this.botId ? { botId: this.botId } : {}) };
    if (action === 'next')
      return this.guarded((overrule) => this.shell.api.shareNext({ ...target, ...overrule }));
    const queued = await this.guarded((overrule) =>
      this.shell.api.addToQueue({ ...target, ...overrule }),
    );
    return queued && { post: queued, moved: [] };
  }

  /**
   * A call that may send the post out, through the duplicate guard: a repeat asks the user first.
   * Declining leaves the editor as it was, with no message.
   */
  private async guarded<T>(
    call: (overrule: Overrule) => Promise<CallResult<T>>,
  ): Promise<T | undefined> {
    const result = await this.shell.duplicates.run(call);
    return result ? this.settle(result) : undefined;
  }

  /** The value of a call, or undefined with its issues placed by their fields. */
  private settle<T>(result: CallResult<T>): T | undefined {
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

  /**
   * Deletes a post that never went out (or is only scheduled); true once it is gone. The notice
   * offers Undo for a while, which writes the post again as it was.
   */
  async remove(): Promise<boolean> {
    const post = this.post;
    if (!post || !this.canDelete || this.busy) return false;
    const removed = await this.call(() => this.shell.api.deletePost({ id: post.id }));
    if (!removed) return false;
    this.shell.notices.show('success', 'Post deleted', 10_000, {
      label: 'Undo',
      run: () => void restorePost(this.shell, post),
    });
    return true;
  }

  /** Takes a scheduled post out of the queue, keeping it as a draft at its time. */
  async moveToDrafts(): Promise<boolean> {
    const post = this.post;
    if (!post || !this.canMoveToDrafts || this.busy) return false;
    const moved = await this.call(() => this.shell.api.moveToDrafts({ id: post.id }));
    if (moved) this.shell.notices.show('success', 'Moved to drafts: it will not go out');
    return !!moved;
  }

  /**
   * Turns the editor into a new post with this one's words, media, bot and time: nothing is saved
   * until the user saves the copy (and the duplicate guard asks if it repeats too soon).
   */
  duplicate(): void {
    if (!this.post) return;
    this.post = null;
    this.tried = null;
    this.refusals = [];
    this.failure = null;
    this.shell.notices.show('info', 'A copy of the post: change what you like, then save it');
  }

  /** A call that needs no duplicate guard; its failure is shown in the editor. */
  private async call<T>(run: () => Promise<CallResult<T>>): Promise<T | undefined> {
    this.busy = true;
    this.failure = null;
    try {
      const result = await run();
      if (result.ok) return result.value;
      this.failure = result.error.message;
      return undefined;
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

/**
 * Writes a deleted post again as it was: scheduled at its time when that is still ahead, else a
 * draft. The post it repeats is gone, so the duplicate guard has nothing to ask.
 */
export async function restorePost(shell: Shell, post: LocalPost): Promise<void> {
  const at = post.scheduledAt;
  const schedule = post.status === 'scheduled' && at !== null && at > Date.now();
  const result = await shell.api.addPost({
    text: post.text,
    mediaUrls: post.mediaUrls,
    mode: schedule ? 'schedule' : 'draft',
    allowDuplicate: true,
    ...(post.botId ? { botId: post.botId } : {}),
    ...(at !== null ? { at: Temporal.Instant.fromEpochMilliseconds(at).toString() } : {}),
    ...(post.zone ? { zone: post.zone } : {}),
  });
  if (result.ok) shell.notices.show('success', 'Post restored');
  else shell.notices.error(result.error.message, 'Could not restore the post');
}
