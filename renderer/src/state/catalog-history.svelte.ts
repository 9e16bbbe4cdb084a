// Undo and redo for the catalog grid (browser): each edit, paste or delete is one step that
// knows every product it touched as it was before and after. Undoing writes the old fields back
// through the core (saveProduct), deletes a draft the step created and re-creates one it deleted;
// redoing does the reverse. The core stays the judge: a product queued since cannot be changed.
import type { Api } from '../lib/api';
import type { Notices } from './notices.svelte';
import type { LocalProduct } from '../../../shared/domain';
import { saveInput } from './catalog-cells';
import type { SaveInput } from './catalog-cells';

/** A product's fields as saveProduct takes them, without the id (which a re-created one changes). */
type Fields = Omit<SaveInput, 'id'>;

/** One product in a step: null fields mean it did not exist on that side. */
interface Touched {
  /** The product's id now, or null while it does not exist. */
  id: number | null;
  before: Fields | null;
  after: Fields | null;
}

export interface HistoryStep {
  /** What the step did, for the notice after undoing it ("the paste of 3 rows"). */
  what: string;
  touched: Touched[];
}

/** Steps kept; older ones drop off, as in a spreadsheet. */
const KEPT_STEPS = 100;
/**
 * The most products one step may take back, a call each: deleting 100,000 "all matching" drafts
 * is not kept, rather than undone by 100,000 calls.
 */
const MAX_UNDOABLE_PRODUCTS = 1000;

function fieldsOf(product: LocalProduct): Fields {
  const { id: _id, ...fields } = saveInput(product);
  return fields;
}

/** A step from products as they were (null: created) and are now (null: deleted). */
export function stepOf(
  what: string,
  changes: { before: LocalProduct | null; after: LocalProduct | null }[],
): HistoryStep {
  return {
    what,
    touched: changes.map(({ before, after }) => ({
      id: after?.id ?? null,
      before: before && fieldsOf(before),
      after: after && fieldsOf(after),
    })),
  };
}

/** How long a notice with Undo stays: long enough to read it and reach the button. */
const UNDO_NOTICE_MS = 10_000;

type Outcome = { step: HistoryStep; failures: string[] } | null;

export class CatalogHistory {
  private undoable = $state.raw<HistoryStep[]>([]);
  private redoable = $state.raw<HistoryStep[]>([]);
  /** True while an undo or redo is on its way, so a second key press waits for it. */
  busy = $state(false);

  constructor(
    private readonly api: Api,
    private readonly notices: Notices,
    private readonly view: {
      /** Fetches the rows on screen again once a step is undone or redone. */
      refresh: () => Promise<void>;
      /** Says what happened in the grid's status region. */
      say: (text: string) => void;
    },
  ) {}

  get canUndo(): boolean {
    return this.undoable.length > 0 && !this.busy;
  }

  get canRedo(): boolean {
    return this.redoable.length > 0 && !this.busy;
  }

  /**
   * Keeps the step just made and says what it did (`text`) with an Undo button; a new change
   * forgets what could be redone.
   */
  record(step: HistoryStep, text: string): void {
    if (step.touched.length === 0) return;
    if (step.touched.length > MAX_UNDOABLE_PRODUCTS) {
      this.notices.show('success', `${text} (Too many products to undo here.)`);
      return;
    }
    this.undoable = [...this.undoable, step].slice(-KEPT_STEPS);
    this.redoable = [];
    this.notices.show('success', text, UNDO_NOTICE_MS, {
      label: 'Undo',
      run: () => {
        // A later change would be undone instead; the user undoes in order, as in a spreadsheet.
        if (this.undoable.at(-1) === step) void this.undo();
        else this.notices.show('info', 'Undo the later changes first (Ctrl+Z).');
      },
    });
  }

  /** Ctrl+Z: takes back the latest edit, paste or delete through the core. */
  undo(): Promise<void> {
    return this.travel('undo');
  }

  /** Ctrl+Shift+Z: does again what was undone. */
  redo(): Promise<void> {
    return this.travel('redo');
  }

  private async travel(direction: 'undo' | 'redo'): Promise<void> {
    const done = await this.move(direction);
    if (!done) {
      this.view.say(direction === 'undo' ? 'Nothing to undo.' : 'Nothing to redo.');
      return;
    }
    await this.view.refresh();
    const verb = direction === 'undo' ? 'Undid' : 'Redid';
    if (done.failures.length === 0) {
      const text = `${verb} ${done.step.what}.`;
      this.view.say(text);
      this.notices.show('info', text);
      return;
    }
    this.view.say(`${verb} ${done.step.what} in part.`);
    this.notices.show(
      'error',
      `Could not ${direction} all of ${done.step.what}: ${done.failures.slice(0, 3).join('; ')}`,
    );
  }

  /** Applies the latest step one way and moves it to the other stack. */
  private async move(direction: 'undo' | 'redo'): Promise<Outcome> {
    const from = direction === 'undo' ? this.undoable : this.redoable;
    const step = from.at(-1);
    if (!step || this.busy) return null;
    this.busy = true;
    try {
      const failures = (
        await Promise.all(
          step.touched.map((touched) =>
            this.apply(touched, direction === 'undo' ? touched.before : touched.after),
          ),
        )
      ).filter((failure): failure is string => failure !== null);
      if (direction === 'undo') {
        this.undoable = this.undoable.slice(0, -1);
        this.redoable = [...this.redoable, step];
      } else {
        this.redoable = this.redoable.slice(0, -1);
        this.undoable = [...this.undoable, step];
      }
      return { step, failures };
    } finally {
      this.busy = false;
    }
  }

  /** Makes one product `target` (null: gone); answers why not, or null when done. */
  private async apply(touched: Touched, target: Fields | null): Promise<string | null> {
    const sku = (target ?? touched.before ?? touched.after)?.sku ?? 'a product';
    if (target === null) {
      if (touched.id === null) return null;
      const result = await this.api.deleteProducts({ ids: [touched.id] });
      if (!result.ok) return `${sku}: ${result.error.message}`;
      touched.id = null;
      return null;
    }
    const result = await this.api.saveProduct(
      touched.id === null ? target : { ...target, id: touched.id },
    );
    if (!result.ok) return `${sku}: ${result.error.message}`;
    touched.id = result.value.id;
    return null;
  }
}
