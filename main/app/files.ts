// CSV files through native dialogs (Electron main process): Import CSV… and a CSV dropped on the
// window ask what the file holds and import it whole (the Import screen is there for mapping
// columns and skipping bad rows); Export … as CSV writes where the save dialog says.
import { basename, join } from 'node:path';
import type { ImportResult } from '../../shared/domain';
import { invoke } from '../core/operations';
import type { Session } from '../core/session';
import type { ElectronApi } from './electron-api';
import type { Log } from './log';
import type { InFlight } from './quit';

export interface CsvFilesOptions {
  dialog: ElectronApi['dialog'];
  session: Session;
  calls: InFlight;
  log: Log;
  /** Where the save dialog starts. */
  documents: string;
  /** False once quitting has begun. */
  accepting: () => boolean;
}

const CSV_FILE = /\.(csv|tsv|txt)$/i;

function importSummary(result: ImportResult): {
  type: 'info' | 'error';
  message: string;
  detail: string;
} {
  if (result.written)
    return {
      type: 'info',
      message: `Imported ${result.kind}: ${result.inserted} new, ${result.updated} updated, ${result.unchanged} unchanged.`,
      detail: result.warnings.map((w) => `Row ${w.row}, ${w.column}: ${w.message}`).join('\n'),
    };
  return {
    type: 'error',
    message: `Nothing was imported: ${result.invalid} of ${result.rows} rows have errors.`,
    detail: [
      ...result.errors.slice(0, 10).map((e) => `Row ${e.row}, ${e.column}: ${e.message}`),
      'Fix them, or use the Import screen to map columns and skip bad rows.',
    ].join('\n'),
  };
}

export function csvFiles(options: CsvFilesOptions) {
  const { dialog, session, calls, log } = options;
  const tell = (type: 'info' | 'error', message: string, detail = '') =>
    dialog.showMessageBox({ type, message, detail, buttons: ['OK'] });

  /** Imports `dropped`, or a file the open dialog picks. */
  async function importCsv(dropped?: string): Promise<void> {
    if (dropped && !CSV_FILE.test(dropped))
      return log.warn(`Ignored a dropped file that is not CSV: ${basename(dropped)}`);
    const path =
      dropped ??
      (
        await dialog.showOpenDialog({
          title: 'Import a CSV file',
          properties: ['openFile'],
          filters: [{ name: 'CSV files', extensions: ['csv', 'tsv', 'txt'] }],
        })
      ).filePaths[0];
    if (!path || !options.accepting()) return;
    const { response } = await dialog.showMessageBox({
      type: 'question',
      message: `Import ${basename(path)} as…`,
      buttons: ['Posts', 'Products', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
    });
    if (response === 2) return;
    const kind = response === 0 ? 'posts' : 'products';
    const result = await calls.track(invoke(session, 'importFile', { kind, path }));
    if (!result.ok) return void (await tell('error', 'The import failed.', result.error.message));
    // invoke's answer is untyped; importFile's value is an ImportResult (OperationResults).
    const summary = importSummary(result.value as ImportResult);
    await tell(summary.type, summary.message, summary.detail);
  }

  async function exportCsv(kind: 'posts' | 'products'): Promise<void> {
    const { canceled, filePath } = await dialog.showSaveDialog({
      title: `Export ${kind} as CSV`,
      defaultPath: join(options.documents, `pressroom-${kind}.csv`),
      filters: [{ name: 'CSV files', extensions: ['csv'] }],
    });
    if (canceled || !filePath || !options.accepting()) return;
    const result = await calls.track(invoke(session, 'exportFile', { kind, path: filePath }));
    if (result.ok) await tell('info', `Exported ${String(result.value)} ${kind} to ${filePath}.`);
    else await tell('error', 'The export failed.', result.error.message);
  }

  return { importCsv, exportCsv };
}
