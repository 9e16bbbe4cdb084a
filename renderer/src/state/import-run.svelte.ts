// One import (browser): its live progress, its result, and its undo, which the history can also
// start. Whether it can still be undone is what the history's list says of its batch.
import type { OperationInput } from '../../../shared/contract';
import { describeUndone } from '../../../shared/domain';
import type { ImportProgress, ImportResult } from '../../../shared/domain';
import type { ImportHistory } from './import-history.svelte';
import type { Shell } from './shell.svelte';

export class ImportRun {
  importing = $state(false);
  progress = $state.raw<ImportProgress | null>(null);
  result = $state.raw<ImportResult | null>(null);
  error = $state<string | null>(null);
  /** What Undo did, once it ran. */
  undone = $state<string | null>(null);
  /** The core's refusal of this import's undo. */
  private undoRefused = $state<string | null>(null);

  constructor(
    private readonly shell: Shell,
    private readonly history: ImportHistory,
  ) {}

  /** Why Undo can no longer run: the core refused it, or the history says items went out. */
  get undoBlocked(): string | null {
    if (this.undoRefused) return this.undoRefused;
    const entry = this.history.find(this.result?.batch);
    if (!entry || entry.undoneAt !== null || entry.cannotUndo === null) return null;
    return `Some ${entry.kind} of this import are on the platform already, so it can no longer be undone.`;
  }

  /** An undo, of this import or another, is running. */
  get undoing(): boolean {
    return this.history.undoing !== null;
  }

  /** The calendar's day of the result's first post, for "See on calendar"; null when none. */
  get firstAt(): number | null {
    return this.history.find(this.result?.batch)?.firstAt ?? null;
  }

  /** Imports the uploaded file with `input`, following its progress; tells what it wrote. */
  async start(input: OperationInput<'importUpload'>): Promise<void> {
    this.clear();
    this.importing = true;
    this.progress = { rowsRead: 0, rowsValid: 0, rowsWritten: 0, bytesRead: 0, bytes: 0 };
    const answer = await this.shell.api.importUpload(input);
    this.importing = false;
    if (!answer.ok) {
      this.error = answer.error.message;
      return;
    }
    this.result = answer.value;
    await this.history.load();
    if (answer.value.written) {
      const { inserted, updated, kind } = answer.value;
      this.shell.notices.show('success', `Imported ${inserted} new and ${updated} updated ${kind}`);
    }
  }

  /** Undoes the batch just imported (the result's), or one from the history. */
  async undo(batch = this.result?.batch): Promise<void> {
    if (!batch) return;
    const answer = await this.history.undo(batch);
    if (!answer) return;
    const current = batch === this.result?.batch;
    if (answer.ok) {
      const undone = `Import undone: ${describeUndone(answer.value)}`;
      if (current) this.undone = undone;
      this.shell.notices.show('success', undone);
    } else if (answer.error.kind === 'not_allowed' && current) {
      this.undoRefused = answer.error.message;
    } else {
      this.shell.notices.error(answer.error.message, 'Could not undo the import');
    }
    await this.history.load();
  }

  /** Follows the import's progress; returns the way to stop. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      if (event.type === 'import' && this.importing) this.progress = event.progress;
    });
  }

  /** Forgets the last import's outcome: a new file or kind is on screen. */
  clear(): void {
    this.result = null;
    this.error = null;
    this.progress = null;
    this.undone = null;
    this.undoRefused = null;
  }
}
