// Messages for the user (browser): what went wrong and what to do next, or what just happened.
import { CallFailure } from '../lib/api';

export interface Notice {
  id: number;
  tone: 'error' | 'success' | 'info';
  text: string;
  /** A button in the notice, such as Undo; pressing it closes the notice. */
  action?: NoticeAction;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

export class Notices {
  list = $state<Notice[]>([]);
  private nextId = 1;

  /** `ttlMs` null: the notice stays until the user closes it or acts on it. */
  show(
    tone: Notice['tone'],
    text: string,
    ttlMs: number | null = tone === 'error' ? 10_000 : 4_000,
    action?: NoticeAction,
  ): void {
    const id = this.nextId++;
    this.list = [...this.list, { id, tone, text, ...(action ? { action } : {}) }];
    if (ttlMs !== null) setTimeout(() => this.dismiss(id), ttlMs);
  }

  /** Runs a notice's action once and closes the notice. */
  act(notice: Notice): void {
    this.dismiss(notice.id);
    notice.action?.run();
  }

  /** Shows a failed call's message as the core worded it (it already says what to do). */
  error(error: unknown, doing?: string): void {
    const message =
      error instanceof CallFailure || error instanceof Error ? error.message : String(error);
    this.show('error', doing ? `${doing}: ${message}` : message);
  }

  dismiss(id: number): void {
    this.list = this.list.filter((notice) => notice.id !== id);
  }
}
