// AI assist in the post editor (browser): asks the AI to draft, shorten, rephrase or tag the
// post's text, replaces the text with the answer, and undoes that step by step.
import type { AI_TASKS } from '../../../shared/contract';
import type { AiAssistReply } from '../../../shared/domain';
import type { Shell } from './shell.svelte';

export type AiTask = (typeof AI_TASKS)[number];

export const AI_BUTTONS: { task: AiTask; label: string }[] = [
  { task: 'draft', label: 'Draft' },
  { task: 'shorten', label: 'Shorten' },
  { task: 'rephrase', label: 'Rephrase' },
  { task: 'hashtags', label: 'Hashtags' },
];

export class PostAssist {
  assisting = $state<AiTask | null>(null);
  reply = $state.raw<AiAssistReply | null>(null);
  assistError = $state<string | null>(null);
  /** The texts the AI replaced, the last one first to come back. */
  private history = $state.raw<string[]>([]);
  readonly canUndo = $derived(this.history.length > 0);

  constructor(
    private readonly shell: Shell,
    /** The post's text, which the answers replace. */
    private readonly post: { text: string },
  ) {}

  /**
   * Asks the AI; its answer replaces the text (hashtags are appended), and undo brings it back.
   * A failure leaves the text as it was and keeps the provider's message.
   */
  async assist(task: AiTask): Promise<void> {
    const source = this.post.text.trim();
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
      this.history = [...this.history, this.post.text];
      this.post.text = task === 'hashtags' ? `${this.post.text.trimEnd()}\n\n${answer}` : answer;
      this.reply = result.value;
    } finally {
      this.assisting = null;
    }
  }

  undo(): void {
    const previous = this.history.at(-1);
    if (previous === undefined) return;
    this.history = this.history.slice(0, -1);
    this.post.text = previous;
  }
}
