// The AI campaign dialog's state (browser): a brief and its options, with the tokens the request
// will likely use shown before it is sent; the drafts the AI answered, each editable and
// removable, with what the call used; and saving the kept drafts as drafts or into the bot's free
// slots, where a duplicate is told and may be overruled. The dialog and its parts only bind.
import { estimateCampaign, MAX_CAMPAIGN_POSTS } from '../../../shared/campaign';
import type { CampaignTone } from '../../../shared/campaign';
import type { OperationInput } from '../../../shared/contract';
import type { CallError } from '../../../shared/answers';
import { comparableText } from '../../../shared/duplicates';
import type {
  BotSummary,
  CampaignDrafts,
  DuplicateConflict,
  LocalPost,
} from '../../../shared/domain';
import { formatSpan } from '../lib/format';
import type { Shell } from './shell.svelte';

export type Placement = NonNullable<OperationInput<'saveCampaignDrafts'>['placement']>;

export const TONE_LABELS: Record<CampaignTone, string> = {
  friendly: 'Friendly',
  professional: 'Professional',
  playful: 'Playful',
  urgent: 'Urgent',
};

/** 1 to 14: the posts one request may ask for. */
export const COUNTS = Array.from({ length: MAX_CAMPAIGN_POSTS }, (_, index) => index + 1);

export const PLACEMENT_LABELS: Record<Placement, string> = {
  drafts: 'Save as drafts',
  slots: 'Add to free slots',
};

/** One draft as the user edits it; the key keeps its field when others are removed. */
export interface CampaignDraft {
  key: number;
  text: string;
}

/** Why drafting failed: the server's message, and each provider's own failure. */
export interface DraftFailure {
  message: string;
  providers: string[];
}

/** A save the core refused because a text repeats a post: what it repeats, to save anyway. */
export interface Conflict {
  placement: Placement;
  message: string;
  duplicate: DuplicateConflict;
}

/** A refused save's problems, placed: by draft key, on the bot, or about the whole. */
export interface SaveProblems {
  drafts: Record<number, string>;
  bot: string | null;
  other: string | null;
}

const NO_PROBLEMS: SaveProblems = { drafts: {}, bot: null, other: null };

/** Places the core's issues (`drafts[2]`, `botId`) on the drafts sent and the bot field. */
export function placeProblems(error: CallError, sent: readonly CampaignDraft[]): SaveProblems {
  const problems: SaveProblems = { drafts: {}, bot: null, other: null };
  for (const issue of error.issues ?? []) {
    const index = /^drafts\[(\d+)\]$/.exec(issue.field)?.[1];
    const draft = index === undefined ? undefined : sent[Number(index)];
    if (draft) problems.drafts[draft.key] = issue.message;
    else if (issue.field === 'botId') problems.bot = issue.message;
  }
  const placed = Object.keys(problems.drafts).length > 0 || problems.bot !== null;
  return placed ? problems : { ...problems, other: error.message };
}

export class CampaignState {
  brief = $state('');
  count = $state(3);
  /** '' asks for the default bot, as the core reads a missing botId. */
  botId = $state('');
  tone = $state<CampaignTone>('friendly');
  hashtags = $state(false);
  /** Draft was pressed without a brief: said until one is written. */
  private askedWithoutBrief = $state(false);
  drafting = $state(false);
  draftFailure = $state.raw<DraftFailure | null>(null);
  /** The last answer: provider, model, tokens used, and how many posts it gave. */
  answer = $state.raw<CampaignDrafts | null>(null);
  drafts = $state.raw<CampaignDraft[]>([]);
  saving = $state<Placement | null>(null);
  problems = $state.raw<SaveProblems>(NO_PROBLEMS);
  conflict = $state.raw<Conflict | null>(null);
  private nextKey = 1;

  // A closure, as the shell is a constructor parameter, set after the fields.
  readonly defaultBot = $derived.by(() => this.findBot(this.shell.settings?.defaultBotId ?? null));
  /** The bot whose name and channel shape the request: the chosen one, else the default bot. */
  readonly bot = $derived(this.botId ? this.findBot(this.botId) : this.defaultBot);
  /** What the request will likely cost, counted as the core will count it. */
  readonly estimate = $derived(
    estimateCampaign({
      brief: this.brief.trim(),
      count: this.count,
      tone: this.tone,
      hashtags: this.hashtags,
      channel: this.bot?.channel ?? null,
      botName: this.bot?.name ?? null,
    }),
  );
  /** The drafts whose text is the one a duplicate refusal names (the core's rule for "same"). */
  readonly repeating = $derived.by(() => {
    if (!this.conflict) return [];
    const repeated = comparableText(this.conflict.duplicate.text);
    return this.drafts
      .filter((draft) => comparableText(draft.text) === repeated)
      .map((draft) => draft.key);
  });
  readonly briefMissing = $derived(this.askedWithoutBrief && this.brief.trim() === '');
  readonly canSave = $derived(this.drafts.length > 0 && this.saving === null && !this.drafting);

  constructor(
    private readonly shell: Shell,
    /** The bots to choose from (the calendar's, which it keeps current). */
    private readonly listBots: () => readonly BotSummary[],
  ) {}

  get bots(): readonly BotSummary[] {
    return this.listBots();
  }

  get zone(): string {
    return this.shell.timezone;
  }

  private findBot(id: string | null): BotSummary | undefined {
    return id === null ? undefined : this.listBots().find((bot) => bot.id === id);
  }

  /**
   * Asks the AI for the posts. Its drafts replace the ones shown; a failure keeps everything as
   * it was (brief, options and drafts) beside the server's message.
   */
  async draft(): Promise<void> {
    const brief = this.brief.trim();
    this.askedWithoutBrief = brief === '';
    if (brief === '' || this.drafting) return;
    this.drafting = true;
    this.draftFailure = null;
    try {
      const result = await this.shell.api.draftCampaign({
        brief,
        count: this.count,
        tone: this.tone,
        hashtags: this.hashtags,
        ...(this.botId ? { botId: this.botId } : {}),
      });
      if (!result.ok) {
        // A platform error's issues are the providers tried, each with its own failure.
        const { kind, message, issues = [] } = result.error;
        const providers = kind === 'platform' ? issues.map((issue) => issue.message) : [];
        this.draftFailure = { message, providers };
        return;
      }
      this.answer = result.value;
      this.drafts = result.value.drafts.map((text) => ({ key: this.nextKey++, text }));
      this.problems = NO_PROBLEMS;
      this.conflict = null;
    } finally {
      this.drafting = false;
    }
  }

  /** A changed text is no longer what a problem or a duplicate refusal was about. */
  edit(key: number, text: string): void {
    this.drafts = this.drafts.map((draft) => (draft.key === key ? { ...draft, text } : draft));
    this.settled(key);
  }

  remove(key: number): void {
    this.drafts = this.drafts.filter((draft) => draft.key !== key);
    this.settled(key);
  }

  private settled(key: number): void {
    this.conflict = null;
    if (!(key in this.problems.drafts)) return;
    const drafts = Object.entries(this.problems.drafts).filter(([other]) => Number(other) !== key);
    this.problems = { ...this.problems, drafts: Object.fromEntries(drafts) };
  }

  /** The duplicate refusal, overruled: the same save, going ahead. */
  saveAnyway(): Promise<LocalPost[] | undefined> {
    return this.conflict ? this.save(this.conflict.placement, true) : Promise.resolve(undefined);
  }

  /** Saves the kept drafts, in order; returns the posts once saved (the dialog then closes). */
  async save(placement: Placement, allowDuplicate = false): Promise<LocalPost[] | undefined> {
    if (!this.canSave) return undefined;
    const sent = this.drafts;
    this.saving = placement;
    this.problems = NO_PROBLEMS;
    this.conflict = null;
    try {
      const result = await this.shell.api.saveCampaignDrafts({
        drafts: sent.map((draft) => draft.text),
        placement,
        allowDuplicate,
        ...(this.botId ? { botId: this.botId } : {}),
      });
      if (result.ok) {
        this.shell.notices.show('success', this.savedNote(placement, result.value));
        return result.value;
      }
      const { error } = result;
      if (error.kind === 'duplicate' && error.duplicate)
        this.conflict = { placement, message: error.message, duplicate: error.duplicate };
      else this.problems = placeProblems(error, sent);
      return undefined;
    } finally {
      this.saving = null;
    }
  }

  private savedNote(placement: Placement, posts: readonly LocalPost[]): string {
    const counted = `${posts.length} ${posts.length === 1 ? 'post' : 'posts'}`;
    if (placement === 'drafts') return `Saved ${counted} as drafts`;
    // Slots are taken in order, so the first post has the earliest and the last the latest.
    const first = posts[0]?.scheduledAt ?? 0;
    const last = posts.at(-1)?.scheduledAt ?? first;
    return `Added ${counted} to free slots: ${formatSpan(first, last, this.zone)}`;
  }
}
