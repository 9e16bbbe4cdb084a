// One window of a long, searchable list from the core (browser): orders and subscribers page
// through it the same way.
import type { CallResult } from '../../../shared/answers';
import type { Page } from '../../../shared/domain';

export interface PageQuery {
  offset: number;
  limit: number;
  search?: string;
}

export class PagedList<T> {
  rows = $state.raw<T[]>([]);
  total = $state(0);
  offset = $state(0);
  search = $state('');
  loading = $state(false);
  /** False until the first page arrived, so the empty state does not flash before it. */
  loaded = $state(false);
  error = $state<string | null>(null);
  private request = 0;
  private pendingRestart: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly fetchPage: (query: PageQuery) => Promise<CallResult<Page<T>>>,
    readonly limit = 50,
    /** How long typing must pause before a search or filter field asks the core. */
    readonly typingDelayMs = 250,
  ) {}

  get hasPrevious(): boolean {
    return this.offset > 0;
  }

  get hasNext(): boolean {
    return this.offset + this.limit < this.total;
  }

  async load(): Promise<void> {
    // Typing a search starts a load per keystroke; only the newest answer may land.
    const request = ++this.request;
    this.loading = true;
    const search = this.search.trim();
    const result = await this.fetchPage({
      offset: this.offset,
      limit: this.limit,
      ...(search ? { search } : {}),
    });
    if (request !== this.request) return;
    this.loading = false;
    if (result.ok) {
      this.rows = result.value.rows;
      this.total = result.value.total;
      this.error = null;
      this.loaded = true;
    } else {
      this.error = result.error.message;
    }
  }

  /** A new search or filter starts again from the first page. */
  restart(): Promise<void> {
    this.cancelPendingRestart();
    this.offset = 0;
    return this.load();
  }

  /** Restarts once typing pauses, so a word typed is one query rather than one per keystroke. */
  restartSoon(): void {
    this.cancelPendingRestart();
    this.pendingRestart = setTimeout(() => void this.restart(), this.typingDelayMs);
  }

  /** Drops a restart still waiting for typing to pause (the screen is closing). */
  cancelPendingRestart(): void {
    clearTimeout(this.pendingRestart);
    this.pendingRestart = undefined;
  }

  goTo(offset: number): Promise<void> {
    this.offset = Math.max(0, offset);
    return this.load();
  }

  next(): Promise<void> {
    return this.goTo(this.offset + this.limit);
  }

  previous(): Promise<void> {
    return this.goTo(this.offset - this.limit);
  }
}
