// Imports and exports (Node, main process): CSV files of posts or products read in as undoable
// batches (from a path, or an upload the page sent), the wizard's preview, the import history and
// undo, and CSV out to a path or as text for a download.
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { uploadFileName } from '../../../shared/contract';
import { MAX_UPLOAD_BYTES } from '../../../shared/upload-limits';
import type { CheckedInput } from '../../../shared/contract';
import type {
  ImportBatch,
  ImportPreview,
  ImportProgress,
  ImportResult,
  ImportUndone,
} from '../../../shared/domain';
import { FIELDS, MappingError } from '../../csv/columns';
import type { ImportKind } from '../../csv/columns';
import type { CsvPreview } from '../../csv/import';
import type { ImportOptions } from '../../csv/import-options';
import { UnusableFile } from '../../csv/read';
import { SOURCE_LABELS } from '../../csv/sources';
import type { ImportsStore } from '../../store/imports';
import { InvalidInput, NotAllowed } from '../errors';
import type { CoreEvents } from '../events';
import type { Outbox } from '../outbox';
import { PrivateFiles, privateTemporaryFolder } from '../private-files';
import type { SettingsService } from './settings';

/**
 * CSV in and out over the workspace (main/csv/ import.ts and export.ts, bound to its store by
 * workspace.ts): an import writes posts, products and the outbox in its own transactions.
 */
export interface CsvFiles {
  importCsv(kind: ImportKind, path: string, options: ImportOptions): Promise<ImportResult>;
  previewCsv(
    kind: ImportKind,
    path: string,
    options: ImportOptions,
    sampleRows: number,
  ): Promise<CsvPreview>;
  exportCsv(kind: ImportKind, path: string, bom: boolean): Promise<number>;
}

/** What imports reads and writes of the store: the import batches (their undo, their history). */
export interface ImportsData {
  imports: ImportsStore;
}

/**
 * Uploads kept at once: the wizard's file (previewed, then imported) and a few more; the web
 * host takes at most two at a time. Bad-rows files: the latest imports' and previews'.
 */
const KEPT_UPLOADS = 4;
const KEPT_BAD_ROWS = 8;

async function withTemporaryFolder<T>(work: (folder: string) => Promise<T>): Promise<T> {
  const folder = privateTemporaryFolder();
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A column choice the file cannot satisfy is the caller's input at fault, field by field. */
function mappingAsInput(error: unknown): never {
  throw error instanceof MappingError ? new InvalidInput(error.issues) : error;
}

export class ImportsService {
  private readonly uploads = new PrivateFiles(KEPT_UPLOADS);
  private readonly badRows = new PrivateFiles(KEPT_BAD_ROWS);

  constructor(
    private readonly store: ImportsData,
    private readonly csv: CsvFiles,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly settings: SettingsService,
  ) {}

  /**
   * Imports a CSV file of posts or products as one undoable batch (see main/csv/import.ts); its
   * progress is told as the workspace's `import` events, to a window and the CLI alike.
   */
  importFile(request: CheckedInput<'importFile'>): Promise<ImportResult> {
    return this.runImport(request, (progress) => this.events.emit({ type: 'import', progress }));
  }

  private async runImport(
    request: CheckedInput<'importFile'>,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    const result = await this.withBadRows(request, onProgress, async (options) => {
      const ran = await this.csv.importCsv(request.kind, request.path, options);
      return { result: ran, value: ran };
    });
    if (result.written) this.events.emit({ type: 'changed', what: request.kind });
    if (result.written && (request.queue || request.fillSlots)) this.outbox.lookAgain();
    return result;
  }

  /**
   * Runs an import or a preview with the options a request means here (the workspace's zone,
   * default bot and currency, duplicate window) and a private file for its bad rows, kept for
   * getBadRows only when the run found some.
   */
  private async withBadRows<T>(
    request: CheckedInput<'importFile'>,
    onProgress: ((progress: ImportProgress) => void) | undefined,
    work: (options: ImportOptions) => Promise<{ result: ImportResult | null; value: T }>,
  ): Promise<T> {
    if (request.fillSlots && request.kind !== 'posts')
      throw new InvalidInput([{ field: 'fillSlots', message: 'is for posts' }]);
    const badRows = await this.badRows.create('bad-rows.csv');
    const options = this.optionsOf(request, badRows.path, onProgress);
    const { result, value } = await work(options).catch(async (error: unknown) => {
      await this.badRows.remove(badRows.id);
      return mappingAsInput(error);
    });
    if (result && result.invalid > 0 && existsSync(badRows.path)) result.badRowsFile = badRows.id;
    else await this.badRows.remove(badRows.id);
    return value;
  }

  private optionsOf(
    request: CheckedInput<'importFile'>,
    badRowsPath: string,
    onProgress?: (progress: ImportProgress) => void,
  ): ImportOptions {
    const { settings } = this;
    return {
      badRowsPath,
      dryRun: request.dryRun,
      ...(request.mapping ? { mapping: request.mapping } : {}),
      onError: request.onError,
      queue: request.queue,
      past: request.past,
      ...(request.fillSlots
        ? { fillSlots: { zone: settings.zone(), defaultBotId: settings.defaultBotId() } }
        : {}),
      duplicates: { windowDays: settings.windowDays(), allow: request.allowDuplicates },
      ...(request.timezone ? { timezone: request.timezone } : {}),
      ...(request.dateFormat ? { dateFormat: request.dateFormat } : {}),
      ...(request.encoding ? { encoding: request.encoding } : {}),
      ...(request.firstRowIsData !== undefined ? { firstRowIsData: request.firstRowIsData } : {}),
      ...(request.bot ? { bot: request.bot } : {}),
      defaultCurrency: settings.defaultCurrency(),
      now: this.now(),
      ...(onProgress ? { onProgress } : {}),
    };
  }

  /** Writes posts or products in the columns import reads; returns how many rows. */
  exportFile(input: CheckedInput<'exportFile'>): Promise<number> {
    const { kind, path, bom } = input;
    return this.csv.exportCsv(kind, path, bom);
  }

  undoImport(input: CheckedInput<'undoImport'>): ImportUndone {
    const { batch } = input;
    const undone = this.store.imports.undoBatch(batch);
    if (!undone.ok) throw new NotAllowed(undone.reason);
    this.events.emit({ type: 'changed', what: undone.kind });
    this.outbox.lookAgain();
    return { kind: undone.kind, removed: undone.removed, restored: undone.restored };
  }

  /** The import history: the latest batches, newest first, and why any can no longer be undone. */
  listImports(input: CheckedInput<'listImports'>): ImportBatch[] {
    const { limit } = input;
    return this.store.imports.listBatches(limit).map((batch) => ({
      id: batch.id,
      kind: batch.kind,
      fileName: batch.source === null ? null : basename(batch.source),
      at: batch.createdAt,
      inserted: batch.summary.inserted ?? 0,
      updated: batch.summary.updated ?? 0,
      unchanged: batch.summary.unchanged ?? 0,
      invalid: batch.summary.invalid ?? 0,
      leftOut: batch.summary.leftOut ?? 0,
      undoneAt: batch.undoneAt,
      cannotUndo:
        batch.undoneAt !== null
          ? 'undone already'
          : batch.running
            ? 'still importing'
            : batch.goneOut > 0
              ? `${batch.goneOut} of its ${batch.kind} ${batch.goneOut === 1 ? 'has' : 'have'} gone to the platform`
              : null,
      firstAt: batch.firstAt,
    }));
  }

  /**
   * Keeps a file the page sends (streamed by the web host, or the desktop app's bytes) in a
   * private file under the user's own file name, for importUpload and previewUpload; answers its
   * id. Never held whole in memory; over MAX_UPLOAD_BYTES it is refused and removed.
   */
  async receiveUpload(
    fileName: unknown,
    content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<{ upload: string }> {
    const name = uploadFileName.safeParse(fileName);
    if (!name.success)
      throw new InvalidInput([{ field: 'fileName', message: 'must be 1 to 255 characters' }]);
    const { id, path } = await this.uploads.create(name.data);
    const out = createWriteStream(path, { mode: 0o600 });
    try {
      let size = 0;
      for await (const chunk of content) {
        size += chunk.length;
        if (size > MAX_UPLOAD_BYTES)
          throw new InvalidInput([
            {
              field: 'file',
              message: `${basename(path)} is over ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB, the largest file an import takes`,
            },
          ]);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    } catch (error) {
      out.destroy();
      await this.uploads.remove(id);
      throw error;
    }
    return { upload: id };
  }

  /** The bad rows an import or preview wrote (ImportResult.badRowsFile), as CSV text. */
  async getBadRows(input: CheckedInput<'getBadRows'>): Promise<{ csv: string }> {
    const path = this.badRows.path(input.id);
    if (path === null)
      throw new InvalidInput([
        { field: 'id', message: 'these bad rows are no longer kept: preview or import again' },
      ]);
    return { csv: await readFile(path, 'utf8') };
  }

  /** Removes the uploads and bad-rows files this workspace kept. */
  close(): void {
    this.uploads.close();
    this.badRows.close();
  }

  /**
   * Runs `work` on an uploaded file; problems with the file are told by the user's file name,
   * not the private path.
   */
  private async withUpload<T>(upload: string, work: (path: string) => Promise<T>): Promise<T> {
    const path = this.uploads.path(upload);
    if (path === null)
      throw new InvalidInput([
        { field: 'upload', message: 'this file is no longer kept: pick it again' },
      ]);
    try {
      return await work(path);
    } catch (error) {
      if (error instanceof UnusableFile)
        throw new UnusableFile(error.message.replace(path, basename(path)));
      throw error;
    }
  }

  /** Imports a file the page uploaded (receiveUpload). */
  async importUpload(input: CheckedInput<'importUpload'>): Promise<ImportResult> {
    const { upload, ...options } = input;
    return this.withUpload(upload, (path) => this.importFile({ ...options, path }));
  }

  /**
   * What the import wizard shows before importing: detection, mapping, sample rows and a dry run,
   * from one reading of the file (main/csv/import.ts previewCsv).
   */
  async previewUpload(input: CheckedInput<'previewUpload'>): Promise<ImportPreview> {
    const { upload, sampleRows, ...options } = input;
    return this.withUpload(upload, async (path) => {
      const request = { ...options, path, dryRun: true };
      const preview = await this.withBadRows(request, undefined, async (csvOptions) => {
        const seen = await this.csv.previewCsv(options.kind, path, csvOptions, sampleRows);
        return { result: seen.result, value: seen };
      });
      const { file, mapping: matched } = preview.mapped;
      const fieldAt = new Map<number, string>();
      for (const [field, index] of Object.entries<number>(matched.columns))
        fieldAt.set(index, field);
      for (const [field, indexes] of Object.entries<number[]>(matched.extra))
        for (const index of indexes) fieldAt.set(index, field);
      const source = preview.mapped.source;
      return {
        source: source ? SOURCE_LABELS[source] : null,
        firstRowIsData: file.firstRowIsData,
        encoding: file.encoding,
        encodingGuess: file.encodingGuess,
        delimiter: file.delimiter,
        headers: file.header,
        fields: Object.entries(FIELDS[options.kind]).map(([name, spec]) => ({
          name,
          required: spec.required,
          aliases: [...spec.aliases],
        })),
        mapping: Object.fromEntries(
          file.header.map((header, index) => [header, fieldAt.get(index) ?? null]),
        ),
        sample: preview.sample,
        result: preview.result,
        problem: preview.problem && preview.problem.replace(path, basename(path)),
      };
    });
  }

  /** CSV text of every post or product, in the columns import reads. */
  async exportText(
    input: CheckedInput<'exportText'>,
  ): Promise<{ fileName: string; csv: string; rows: number }> {
    const { kind, bom } = input;
    const fileName = `pressroom-${kind}-${new Date(this.now()).toISOString().slice(0, 10)}.csv`;
    return withTemporaryFolder(async (folder) => {
      const path = join(folder, fileName);
      const rows = await this.csv.exportCsv(kind, path, bom);
      return { fileName, csv: await readFile(path, 'utf8'), rows };
    });
  }
}
