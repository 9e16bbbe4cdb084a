// `import posts|products FILE`, `import list` and `import undo BATCH` (Node, CLI).
import { writeFile } from 'node:fs/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { describeBatch, describeKept, describeUndone } from '../../../shared/domain';
import type { ImportResult } from '../../../shared/domain';
import { TEXT_ENCODINGS } from '../../../shared/encodings';
import { namesList } from '../../../shared/text';
import type { TextEncoding } from '../../../shared/encodings';
import { formatInZone } from '../../../shared/time';
import { CliError, createOutput } from '../output';
import type { Output } from '../output';
import { globalOptions } from '../options';
import { call } from '../../core/operations';
import { withWorkspace } from '../workspace';

interface ImportOptions {
  dryRun: boolean;
  onError: 'abort' | 'skip';
  queue: boolean;
  past?: 'publish-now';
  timezone?: string;
  dateFormat?: 'DD/MM/YYYY' | 'MM/DD/YYYY';
  errors?: string;
  fillSlots: boolean;
  allowDuplicates: boolean;
  encoding?: TextEncoding;
  /** commander's --header / --no-header: undefined when neither is given. */
  header?: boolean;
  bot?: string;
}

export function registerImport(program: Command): void {
  const command = program
    .command('import')
    .description('Import posts or products from a CSV file, list past imports, or undo one')
    .argument('<kind>', 'posts | products, list, or undo')
    .argument('[file]', 'the CSV file, or the batch id to undo');
  addImportOptions(command);
  command.action(
    async (kind: string, file: string | undefined, options: ImportOptions, self: Command) => {
      const output = createOutput((await globalOptions(self)).json);
      if (kind === 'list') return listImports(self, output);
      if (file === undefined)
        throw new CliError(
          kind === 'undo' ? 'name the batch to undo (see import list)' : 'name the CSV file',
          2,
        );
      if (kind === 'undo') return undoImport(self, output, file);
      if (kind !== 'posts' && kind !== 'products')
        throw new CliError(`kind must be posts, products, list or undo, not "${kind}"`, 2);
      if (kind === 'products' && options.fillSlots)
        throw new CliError('--fill-slots is for posts', 2);
      return importFile(self, output, kind, file, options);
    },
  );
}

function addImportOptions(command: Command): void {
  command
    .option('--dry-run', 'validate and report; write nothing', false)
    .addOption(
      new Option(
        '--on-error <mode>',
        'abort: write nothing if any row is invalid; skip: write the valid rows',
      )
        .choices(['abort', 'skip'])
        .default('abort'),
    )
    // Unlike the app's import wizard, which schedules dated posts unless told not to: a script
    // that imports drafts today must not start publishing after an update.
    .option(
      '--queue',
      'schedule posts that have a time, and queue products for publishing (without it, all are drafts)',
      false,
    )
    .addOption(
      new Option(
        '--past <mode>',
        'a scheduled time in the past: publish now instead of an error',
      ).choices(['publish-now']),
    )
    .option('--timezone <zone>', 'IANA zone of times without one (default: this computer’s)')
    .addOption(
      new Option('--date-format <format>', 'for day-first or month-first dates').choices([
        'DD/MM/YYYY',
        'MM/DD/YYYY',
      ]),
    )
    .option('--errors <file>', 'write the invalid rows, with an error column, to this CSV file')
    .addOption(
      new Option(
        '--encoding <name>',
        "the file's text encoding (default: found from the file)",
      ).choices(TEXT_ENCODINGS),
    )
    // --header first: then --no-header sets no default, and neither means "find out".
    .option('--header', 'the first row is column names, even if it looks like data')
    .option('--no-header', 'the first row is data, not column names (found from it if not given)')
    .option('--bot <bot>', 'posts: the bot (id or name) of rows without one')
    .option(
      '--fill-slots',
      "posts: schedule rows without a time in their bot's next free posting slots (implies --queue)",
      false,
    )
    .option(
      '--allow-duplicates',
      'posts: import rows that repeat a post of their bot, instead of leaving them out',
      false,
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 written (or a clean dry run), 1 refused for invalid rows, 2 unusable file.',
    );
}

/** `import list`: past imports, newest first, each with how to undo it or why it cannot be. */
async function listImports(self: Command, output: Output): Promise<void> {
  const { batches, zone } = await withWorkspace(self, (pressroom) => ({
    batches: call(pressroom, 'listImports', {}),
    zone: pressroom.settings.getSettings().timezone,
  }));
  output.result(
    batches.map((batch) => ({
      batch: batch.id,
      kind: batch.kind,
      file: batch.fileName,
      at: new Date(batch.at).toISOString(),
      inserted: batch.inserted,
      updated: batch.updated,
      unchanged: batch.unchanged,
      invalid: batch.invalid,
      left_out: batch.leftOut,
      undoable: batch.cannotUndo === null,
      cannot_undo: batch.cannotUndo,
    })),
    batches.length === 0
      ? 'No imports yet'
      : batches
          .map(
            (batch) =>
              `${batch.id}  ${formatInZone(batch.at, zone)}  ${batch.kind} from ${batch.fileName ?? 'a file'}: ${describeBatch(batch)}; ${batch.cannotUndo === null ? `undo: import undo ${batch.id}` : `cannot undo: ${batch.cannotUndo}`}`,
          )
          .join('\n'),
  );
}

async function undoImport(self: Command, output: Output, file: string): Promise<void> {
  const undone = await withWorkspace(self, (pressroom) =>
    call(pressroom, 'undoImport', { batch: file }),
  );
  output.result({ batch: file, ...undone }, `Undid import ${file}: ${describeUndone(undone)}`);
}

async function importFile(
  self: Command,
  output: Output,
  kind: 'posts' | 'products',
  file: string,
  options: ImportOptions,
): Promise<void> {
  const { result, zone } = await withWorkspace(self, async (pressroom) => {
    // The import tells its progress as the workspace's events, to the CLI as to a window.
    const stop = pressroom.subscribe((event) => {
      if (event.type !== 'import') return;
      const p = event.progress;
      output.progress(`rows read ${p.rowsRead}, valid ${p.rowsValid}, written ${p.rowsWritten}`);
    });
    const result = await call(pressroom, 'importFile', {
      kind,
      path: file,
      dryRun: options.dryRun,
      onError: options.onError,
      queue: options.queue,
      past: options.past ?? 'error',
      ...(options.timezone ? { timezone: options.timezone } : {}),
      ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}),
      fillSlots: options.fillSlots,
      allowDuplicates: options.allowDuplicates,
      ...(options.encoding ? { encoding: options.encoding } : {}),
      ...(options.header !== undefined ? { firstRowIsData: !options.header } : {}),
      ...(options.bot ? { bot: options.bot } : {}),
    }).finally(stop);
    // The workspace keeps the bad rows only while it is open.
    if (options.errors && result.badRowsFile !== null) {
      const { csv } = await call(pressroom, 'getBadRows', { id: result.badRowsFile });
      await writeFile(options.errors, csv);
      output.progress(`Invalid rows written to ${options.errors}`);
    }
    return { result, zone: pressroom.settings.getSettings().timezone };
  });
  output.result(importJson(result), importLines(result, zone, options.dryRun).join('\n'));
  if (!result.written && !(options.dryRun && result.invalid === 0)) process.exitCode = 1;
}

/** The import's result as --json prints it. */
function importJson(result: ImportResult) {
  return {
    kind: result.kind,
    rows: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    unchanged: result.unchanged,
    invalid: result.invalid,
    duplicates: result.duplicates,
    errors: result.errors,
    warnings: result.warnings,
    slots: result.slots.map((slot) => ({
      row: slot.row,
      bot_id: slot.botId,
      at: new Date(slot.at).toISOString(),
    })),
    unknown_columns: result.unknownColumns,
    source: result.source,
    first_row_is_data: result.firstRowIsData,
    left_out: result.leftOut,
    encoding: result.encoding,
    encoding_guess: result.encodingGuess,
    delimiter: result.delimiter,
    batch: result.batch,
  };
}

/** The import's result in lines for a person: what was read, written, left out and why. */
function importLines(result: ImportResult, zone: string, dryRun: boolean): string[] {
  return [
    `${result.rows} rows (${[result.source, result.encoding, `"${result.delimiter === '\t' ? 'tab' : result.delimiter}"-separated`, result.firstRowIsData ? 'no header row' : null].filter(Boolean).join(', ')}): ${result.inserted} new, ${result.updated} updated, ${result.unchanged} unchanged, ${result.invalid} invalid${result.duplicates > 0 ? `, ${result.duplicates} left out as duplicates` : ''}`,
    ...(result.encodingGuess
      ? [
          `The encoding was a guess (${result.encoding}, this computer's code page); if the text looks wrong, import again with --encoding and one of these:`,
          ...result.encodingGuess.map(
            (alternative) => `  ${alternative.encoding}: ${alternative.sample}`,
          ),
        ]
      : []),
    ...result.leftOut.map(
      (left) => `Left out: ${left.rows} ${left.rows === 1 ? 'row' : 'rows'}, ${left.reason}`,
    ),
    ...(result.unknownColumns.length
      ? [`Ignored columns: ${namesList(result.unknownColumns)}`]
      : []),
    ...result.errors
      .slice(0, 50)
      .map((e) => `row ${e.row}, ${e.column} "${e.value}": ${e.message}`),
    ...(result.errorCount > 50 ? [`… and ${result.errorCount - 50} more`] : []),
    ...result.warnings.slice(0, 20).map((w) => `row ${w.row}: ${w.message}`),
    ...(result.duplicates > 0
      ? [
          `${result.duplicates === 1 ? '1 repeated post' : `${result.duplicates} repeated posts`} left out; import with --allow-duplicates to keep ${result.duplicates === 1 ? 'it' : 'them'}`,
        ]
      : []),
    ...result.slots
      .slice(0, 20)
      .map((slot) => `row ${slot.row}: ${slot.botId} at ${formatInZone(slot.at, zone)}`),
    ...(result.slotCount > 20 ? [`… and ${result.slotCount - 20} more slots`] : []),
    result.written
      ? `Written as batch ${result.batch} (undo: import undo ${result.batch})`
      : dryRun
        ? 'Dry run: nothing written'
        : `${describeKept(result) ?? 'Nothing written'}: fix the rows above, or import with --on-error skip`,
  ];
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Export posts or products to a CSV file that import reads back unchanged')
    .argument('<kind>', 'posts | products')
    .argument('<file>', 'the CSV file to write')
    .option('--bom', 'start with a byte-order mark, for Excel', false)
    .action(async (kind: string, file: string, options: { bom: boolean }, self: Command) => {
      const output = createOutput((await globalOptions(self)).json);
      if (kind !== 'posts' && kind !== 'products')
        throw new CliError(`kind must be posts or products, not "${kind}"`, 2);
      const rows = await withWorkspace(self, (pressroom) =>
        call(pressroom, 'exportFile', { kind, path: file, bom: options.bom }),
      );
      output.result({ kind, file, rows }, `Wrote ${rows} ${kind} to ${file}`);
    });
}
