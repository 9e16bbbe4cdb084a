// Past imports (browser), newest first, from the core: they outlast the Import screen. The core's
// list says which can still be undone (cannotUndo); it is read again whenever an item goes out or
// posts or products change, so an import from elsewhere, or one that went out, shows at once.
import type { CallResult } from '../../../shared/answers';
import type { ImportBatch, ImportUndone } from '../../../shared/domain';
import type { Shell } from './shell.svelte';

export class ImportHistory {
  list = $state.raw<ImportBatch[]>([]);
  error = $state<string | null>(null);
  /** The batch whose undo is running, from the result or the list. */
  undoing = $state<string | null>(null);

  constructor(private readonly shell: Shell) {}

  async load(): Promise<void> {
    const answer = await this.shell.api.listImports({});
    if (answer.ok) {
      this.list = answer.value;
      this.error = null;
    } else this.error = answer.error.message;
  }

  find(batch: string | null | undefined): ImportBatch | undefined {
    return batch ? this.list.find((entry) => entry.id === batch) : undefined;
  }

  /** Asks the core to undo `batch` (the caller tells the answer, then lists again); null while another undo runs. */
  async undo(batch: string): Promise<CallResult<ImportUndone> | null> {
    if (this.undoing !== null) return null;
    this.undoing = batch;
    const answer = await this.shell.api.undoImport({ batch });
    this.undoing = null;
    return answer;
  }

  /** Lists again when what it can undo may have changed; returns the way to stop. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      // An item sent (or a batch undone elsewhere) changes what the history can still undo.
      if (
        event.type === 'done' ||
        (event.type === 'changed' && (event.what === 'posts' || event.what === 'products'))
      )
        void this.load();
    });
  }
}
