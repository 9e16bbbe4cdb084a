// Undo and redo for the catalog grid (browser): each edit, paste or delete is one step that
// knows every product it touched as it was before and after. Undoing writes the old fields back
// through the core (saveProduct), deletes a draft the step created and re-creates one it deleted;
// redoing does the reverse. The core stays the judge: a product queued since cannot be changed.
import type { Api } from '../lib/api';
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

export class CatalogHistory {
  private undoable = $state.raw<HistoryStep[]>([]);
  private redoable = $state.raw<HistoryStep[]>([]);
  /** True while an undo or redo is on its way, so a second key press waits for it. */
  busy = $state(false);

  constructor(private readonly api: Api) {}

  get canUndo(): boolean {
    return this.undoable.length > 0 && !this.busy;
  }

  get canRedo(): boolean {
    return this.redoable.length > 0 && !this.busy;
  }

  /** The step just made; a new change forgets what could be redone. */
  record(step: HistoryStep): void {
    if (step.touched.length === 0) return;
    this.undoable = [...this.undoable, step].slice(-KEPT_STEPS);
    this.redoable = [];
  }

  /** Whether `step` is the one Undo would take back now. */
  isLatest(step: HistoryStep): boolean {
    return this.undoable.at(-1) === step;
  }

  /** Takes back the latest step; answers it and the products that could not be restored. */
  undo(): Promise<{ step: HistoryStep; failures: string[] } | null> {
    return this.move('undo');
  }

  redo(): Promise<{ step: HistoryStep; failures: string[] } | null> {
    return this.move('redo');
  }

  private async move(
    direction: 'undo' | 'redo',
  ): Promise<{ step: HistoryStep; failures: string[] } | null> {
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
