// The import wizard (renderer, jsdom): picking a file, the preview with its mapping and marked
// cells, the import with live progress, the result with bad rows and undo, and export.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../shared/upload-limits';
import type { OperationInput } from '../../shared/contract';
import type { CallResult } from '../../shared/answers';
import type { ImportBatch, ImportPreview, ImportProgress, ImportResult } from '../../shared/domain';
import { formatDateTime } from '../../renderer/src/lib/format';
import ImportScreen from '../../renderer/src/screens/ImportScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import {
  cellKey,
  errorsByCell,
  fieldColumns,
  progressPercent,
  tooBig,
} from '../../renderer/src/state/import-view';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { outboxItem } from '../support/outbox';
import { importBatch } from '../support/records';
import { FakeTransport, ok } from './fake-transport';
import { chooseZone } from './fixtures';

const CSV = 'text,scheduled_at,Notes\nHello,2099-01-05 09:00,a\nBroken,next tuesday,b\n';
const BAD_ROWS =
  'text,scheduled_at,Notes,error\r\nBroken,next tuesday,b,"scheduled_at: not a date"\r\n';
const DATE_ERROR = '"next tuesday" is not a date and time such as 2026-11-23 09:00';

const FIELDS: ImportPreview['fields'] = [
  { name: 'text', required: true, aliases: ['text', 'content'] },
  { name: 'scheduled_at', required: false, aliases: ['scheduled_at', 'publish_at'] },
  { name: 'bot', required: false, aliases: ['bot'] },
];

function result(patch: Partial<ImportResult> = {}): ImportResult {
  return {
    kind: 'posts',
    rows: 2,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    invalid: 1,
    duplicates: 0,
    errors: [{ row: 3, column: 'scheduled_at', value: 'next tuesday', message: DATE_ERROR }],
    warnings: [],
    slots: [],
    slotCount: 0,
    slotSpan: null,
    errorCount: 1,
    warningCount: 0,
    badRowsFile: 'bad-1',
    unknownColumns: ['Notes'],
    source: null,
    firstRowIsData: false,
    leftOut: [],
    encoding: 'utf-8',
    encodingGuess: null,
    delimiter: ',',
    batch: null,
    written: false,
    ...patch,
  };
}

function preview(patch: Partial<ImportPreview> = {}): ImportPreview {
  return {
    source: null,
    firstRowIsData: false,
    encoding: 'utf-8',
    encodingGuess: null,
    delimiter: ',',
    headers: ['text', 'scheduled_at', 'Notes'],
    fields: FIELDS,
    mapping: { text: 'text', scheduled_at: 'scheduled_at', Notes: null },
    sample: [
      { row: 2, cells: ['Hello', '2099-01-05 09:00', 'a'] },
      { row: 3, cells: ['Broken', 'next tuesday', 'b'] },
    ],
    result: result(),
    problem: null,
    ...patch,
  };
}

const refused = (kind: 'invalid_input' | 'not_allowed', message: string): CallResult => ({
  ok: false,
  error: { kind, message },
});

const BATCH_7 = importBatch({ id: 'batch-7', fileName: 'calendar.csv', inserted: 1 });

const settings = {
  timezone: 'Europe/Berlin',
  graceMinutes: 30,
  theme: 'light',
  defaultCurrency: 'EUR',
  defaultBotId: null,
  account: { mode: 'demo', apiBase: null, tokenHint: null, plan: 'free' },
};

const downloads: Blob[] = [];
beforeEach(() => {
  downloads.length = 0;
  // jsdom has no Blob URLs; the download's Blob is what the tests read.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    downloads.push(blob);
    return `blob:test/${downloads.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  // jsdom cannot navigate; a download link's click only has to happen.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function setup(
  previewAnswer: (input: OperationInput<'previewUpload'>) => CallResult,
  answers: ConstructorParameters<typeof FakeTransport>[0] = {},
) {
  const transport = new FakeTransport({
    getSettings: () => ok(settings),
    status: () => ok(null),
    listImports: () => ok([]),
    previewUpload: (input) => previewAnswer(input as OperationInput<'previewUpload'>),
    getBadRows: () => ok({ csv: BAD_ROWS }),
    ...answers,
  });
  const shell = new Shell(transport);
  await shell.start();
  render(ImportScreen, { context: shellContext(shell) });
  return { transport, shell };
}

async function pick(csv: string, name = 'calendar.csv'): Promise<void> {
  const input = screen.getByLabelText('CSV file');
  await fireEvent.change(input, {
    target: { files: [new File([csv], name, { type: 'text/csv' })] },
  });
}

/** A Blob's text with its byte-order mark kept (Blob.text() drops it). */
const bytesOf = async (blob: Blob) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());

describe('import wizard helpers', () => {
  it('indexes errors by cell, joining two errors of one cell', () => {
    const index = errorsByCell([
      { row: 3, column: 'price', value: 'x', message: 'Price is not a number' },
      { row: 3, column: 'price', value: 'x', message: 'Price is required' },
      { row: 4, column: 'sku', value: '', message: 'SKU is required' },
    ]);
    expect(index[cellKey(3, 'price')]).toBe('Price is not a number; Price is required');
    expect(index[cellKey(4, 'sku')]).toBe('SKU is required');
    expect(index[cellKey(4, 'price')]).toBeUndefined();
  });

  it('turns the preview’s header → field mapping into one column per field', () => {
    expect(fieldColumns(preview({ mapping: { Words: 'text', When: null } }))).toEqual({
      text: 'Words',
      scheduled_at: null,
      bot: null,
    });
  });

  it('measures progress over reading every row and writing the valid ones', () => {
    const at = (rowsRead: number, rowsWritten: number): ImportProgress => ({
      rowsRead,
      rowsValid: rowsRead,
      rowsWritten,
      bytesRead: 0,
      bytes: 0,
    });
    const expected = result({ rows: 100, invalid: 0 });
    expect(progressPercent(at(50, 0), expected)).toBe(25);
    expect(progressPercent(at(100, 100), expected)).toBe(100);
    // Without a dry run to go by, the bytes read tell it.
    expect(progressPercent({ ...at(0, 0), bytesRead: 30, bytes: 120 }, null)).toBe(25);
  });

  it('refuses a file over the upload limit by its size, before reading it', () => {
    expect(tooBig({ name: 'small.csv', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(tooBig({ name: 'huge.csv', size: MAX_UPLOAD_BYTES + 3 })).toMatch(
      /^“huge\.csv” is 64\.0 MiB; files up to 64 MiB can be imported here\. Split it/,
    );
  });
});

describe('the import screen', () => {
  it('says what to do before a file is picked', async () => {
    await setup(() => ok(preview()));
    expect(screen.getByText(/Pick a CSV file of posts to see how it reads/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('previews a picked file: detection, mapping, marked cells and the errors listed', async () => {
    const { transport } = await setup(() => ok(preview()));
    await pick(CSV);
    expect(await screen.findByText(/Encoding utf-8, delimiter comma, 2 rows/)).toBeTruthy();
    const [request] = transport.callsOf('previewUpload') as OperationInput<'previewUpload'>[];
    expect(request).toMatchObject({
      kind: 'posts',
      upload: 'upload-1',
      onError: 'abort',
      timezone: 'Europe/Berlin',
    });
    expect(request?.mapping).toBeUndefined();
    // The file went once, by itself, not inside the call.
    expect([...transport.uploads.values()]).toEqual([{ fileName: 'calendar.csv', text: CSV }]);

    const textColumn = screen.getByRole('combobox', { name: 'Column for text' });
    expect((textColumn as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('text');
    const botColumn = screen.getByRole('combobox', { name: 'Column for bot' });
    expect((botColumn as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('(not imported)');

    const table = screen.getByRole('table', { name: /The first 2 rows as read/ });
    const invalid = table.querySelectorAll('[aria-invalid="true"]');
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.textContent).toContain('next tuesday');
    expect(invalid[0]?.getAttribute('tabindex')).toBe('0');
    const tip = document.getElementById(invalid[0]?.getAttribute('aria-describedby') ?? '');
    expect(tip?.textContent).toBe(DATE_ERROR);

    const errors = screen.getByRole('region', { name: '1 row has errors' });
    expect(
      within(errors)
        .getByText(/next tuesday/)
        .closest('li')?.textContent,
    ).toContain(DATE_ERROR);
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', false);
  });

  it('previews again with the chosen column, and rolls the choice back when it is refused', async () => {
    const { transport, shell } = await setup((input) =>
      input.mapping?.text === 'Notes'
        ? ok(
            preview({
              mapping: { text: null, scheduled_at: 'scheduled_at', Notes: 'text' },
              result: result({ invalid: 0, errors: [] }),
            }),
          )
        : input.mapping?.bot
          ? refused('invalid_input', 'mapping.bot: "Notes" is not a column of this file')
          : ok(preview()),
    );
    await pick(CSV);
    const textColumn = (await screen.findByRole('combobox', {
      name: 'Column for text',
    })) as HTMLSelectElement;
    await fireEvent.change(textColumn, { target: { value: '2' } });
    await vi.waitFor(() => expect(screen.getByText('Every row is valid.')).toBeTruthy());
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({ mapping: { text: 'Notes' } });
    expect(textColumn.selectedOptions[0]?.textContent).toBe('Notes');

    const botColumn = screen.getByRole('combobox', { name: 'Column for bot' }) as HTMLSelectElement;
    await fireEvent.change(botColumn, { target: { value: '2' } });
    // Notes filled text: giving it to bot took it from text, until the core refused.
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
      mapping: { text: null, bot: 'Notes' },
    });
    await vi.waitFor(() =>
      expect(shell.notices.list.at(-1)?.text).toBe(
        'Could not use that column: mapping.bot: "Notes" is not a column of this file',
      ),
    );
    await vi.waitFor(() =>
      expect(botColumn.selectedOptions[0]?.textContent).toBe('(not imported)'),
    );
    expect(textColumn.selectedOptions[0]?.textContent).toBe('Notes');
  });

  it('explains a file that cannot be imported as mapped, and keeps Import disabled', async () => {
    await setup(() =>
      ok(
        preview({
          result: null,
          problem: 'calendar.csv has no "text" column (the header row has: Words)',
        }),
      ),
    );
    await pick('Words\nHello\n');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'has no "text" column (the header row has: Words). Choose its column in the mapping above',
    );
    expect(screen.getByRole('button', { name: 'Import' })).toHaveProperty('disabled', true);
  });

  it('tells a file too big to upload without reading it', async () => {
    const { transport } = await setup(() => ok(preview()));
    const file = new File(['x'], 'huge.csv');
    Object.defineProperty(file, 'size', { value: MAX_UPLOAD_BYTES + 1 });
    await fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /“huge\.csv” is .* MiB; files up to 64 MiB/,
    );
    expect(transport.callsOf('previewUpload')).toHaveLength(0);
  });

  it('imports with a live progress bar, then shows the counts, the bad rows and undo', async () => {
    const { transport } = await setup(() => ok(preview()));
    let finish: (answer: CallResult) => void = () => undefined;
    transport.answer('importUpload', () => new Promise((resolve) => (finish = resolve)));
    await pick(CSV);
    await fireEvent.click(await screen.findByLabelText('Skip the bad rows, import the rest'));
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(transport.callsOf('importUpload')).toEqual([
      expect.objectContaining({
        kind: 'posts',
        onError: 'skip',
        // Dated posts are scheduled unless the user unticks it.
        queue: true,
        past: 'error',
        upload: 'upload-1',
      }),
    ]);

    transport.emit({
      type: 'import',
      progress: { rowsRead: 2, rowsValid: 1, rowsWritten: 0, bytesRead: 60, bytes: 60 },
    });
    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    // Two rows to read and one valid row to write: two of three steps are done.
    await vi.waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('67'));
    expect(screen.getByText('2 rows read, 1 valid, 0 written')).toBeTruthy();

    finish(ok(result({ inserted: 1, batch: 'batch-1', written: true })));
    const heading = await screen.findByRole('heading', { name: 'Result' });
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.queryByRole('progressbar')).toBeNull();
    const outcome = heading.closest('section')!;
    expect(within(outcome).getByText('Inserted').nextElementSibling?.textContent).toBe('1');
    expect(within(outcome).getByText('Invalid').nextElementSibling?.textContent).toBe('1');

    await fireEvent.click(within(outcome).getByRole('button', { name: 'Download bad rows' }));
    expect(downloads).toHaveLength(1);
    expect(await bytesOf(downloads[0]!)).toBe(`\ufeff${BAD_ROWS}`);

    transport.answer('undoImport', () => ok({ kind: 'posts', removed: 1, restored: 0 }));
    await fireEvent.click(within(outcome).getByRole('button', { name: 'Undo import' }));
    await fireEvent.click(within(outcome).getByRole('button', { name: 'Yes, undo the import' }));
    expect(transport.callsOf('undoImport')).toEqual([{ batch: 'batch-1' }]);
    expect(await within(outcome).findByText('Import undone: 1 posts removed.')).toBeTruthy();
  });

  it('says nothing was imported when bad rows abort it, so the file can be fixed and picked again', async () => {
    const transport: FakeTransport = (
      await setup((input) =>
        transport.uploaded(input.upload).includes('next tuesday')
          ? ok(preview())
          : ok(preview({ result: result({ invalid: 0, errors: [], badRowsFile: null }) })),
      )
    ).transport;
    transport.answer('importUpload', (input) =>
      transport.uploaded((input as OperationInput<'importUpload'>).upload).includes('next tuesday')
        ? ok(result())
        : ok(
            result({
              inserted: 2,
              invalid: 0,
              errors: [],
              badRowsFile: null,
              batch: 'b2',
              written: true,
            }),
          ),
    );
    await pick(CSV);
    await fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    expect(
      (await screen.findByText(/Nothing was imported: 1 row is invalid/)).getAttribute('role'),
    ).toBe('alert');

    await pick(CSV.replace('next tuesday', '2099-01-06 10:00'));
    const button = screen.getByRole('button', { name: 'Import' });
    // The picked file replaces the one on screen: nothing can be imported until it is read.
    expect(button).toHaveProperty('disabled', true);
    await vi.waitFor(() => expect(button).toHaveProperty('disabled', false));
    await fireEvent.click(button);
    const heading = await screen.findByRole('heading', { name: 'Result' });
    await vi.waitFor(() =>
      expect(
        within(heading.closest('section')!).getByText('Inserted').nextElementSibling?.textContent,
      ).toBe('2'),
    );
    expect(screen.queryByText(/Nothing was imported/)).toBeNull();
  });

  it('disables Undo with the core’s reason once items went to the platform', async () => {
    const { transport } = await setup(() => ok(preview()));
    transport.answer('importUpload', () =>
      ok(result({ inserted: 1, batch: 'batch-9', written: true })),
    );
    transport.answer('undoImport', () =>
      refused(
        'not_allowed',
        '1 item(s) of batch batch-9 have gone to the platform already; undo refused',
      ),
    );
    await pick(CSV);
    await fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Undo import' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Yes, undo the import' }));
    expect(await screen.findByText(/have gone to the platform already; undo refused/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Undo import' })).toHaveProperty('disabled', true);
  });

  it('reads a dropped file, and previews again when an option changes the dry run', async () => {
    const { transport } = await setup(() => ok(preview()));
    const zone = screen.getByRole('region', { name: 'Drop a file here' });
    const file = new File([CSV], 'dropped.csv', { type: 'text/csv' });
    await fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    await vi.waitFor(() => expect(transport.callsOf('previewUpload')).toHaveLength(1));
    expect(transport.callsOf('previewUpload')[0]).toMatchObject({ upload: 'upload-1' });
    expect(transport.uploads.get('upload-1')).toEqual({ fileName: 'dropped.csv', text: CSV });

    await fireEvent.click(
      await screen.findByLabelText('Schedule posts that have a time (else they stay drafts)'),
    );
    await fireEvent.click(
      screen.getByLabelText('Publish posts whose time has passed now (else they are errors)'),
    );
    await fireEvent.change(screen.getByLabelText('Date format'), {
      target: { value: 'DD/MM/YYYY' },
    });
    await chooseZone(screen.getByLabelText('Time zone for times without one'), 'Asia/Tokyo');
    await vi.waitFor(() => expect(transport.callsOf('previewUpload')).toHaveLength(5));
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
      // Unticked: the posts stay drafts.
      queue: false,
      past: 'publish-now',
      dateFormat: 'DD/MM/YYYY',
      timezone: 'Asia/Tokyo',
    });
    // What happens to bad rows does not change which rows are bad: no new dry run.
    await fireEvent.click(screen.getByLabelText('Skip the bad rows, import the rest'));
    expect(transport.callsOf('previewUpload')).toHaveLength(5);
  });

  it('puts the date format beside the errors of dates that need it, and previews again with it', async () => {
    const monthFirst =
      '"12/13/2026" can only be month-first (13 is no month); set the date format to MM/DD/YYYY';
    const { transport } = await setup((input) =>
      ok(
        preview({
          result: result(
            input.dateFormat === 'MM/DD/YYYY'
              ? { invalid: 0, errors: [] }
              : {
                  errors: [
                    { row: 3, column: 'scheduled_at', value: '12/13/2026', message: monthFirst },
                  ],
                },
          ),
        }),
      ),
    );
    const zone = screen.getByRole('region', { name: 'Drop a file here' });
    const file = new File([CSV], 'us.csv', { type: 'text/csv' });
    await fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    const errors = await screen.findByRole('region', { name: /1 row has errors/ });
    const beside = screen.getByLabelText('How this file writes dates');
    // Just above the errors it explains, not only far below with the import's choices.
    expect(beside.compareDocumentPosition(errors) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await fireEvent.change(beside, { target: { value: 'MM/DD/YYYY' } });
    await vi.waitFor(() =>
      expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({ dateFormat: 'MM/DD/YYYY' }),
    );
    await screen.findByText('Every row is valid.');
    expect(screen.queryByLabelText('How this file writes dates')).toBeNull();
    expect((screen.getByLabelText('Date format') as HTMLSelectElement).value).toBe('MM/DD/YYYY');
  });

  it('says the encoding was a guess, with a line in each likely one, and reads the file in the one picked', async () => {
    const { transport } = await setup((input) =>
      ok(
        preview(
          input.encoding
            ? { encoding: input.encoding }
            : {
                encoding: 'windows-1251',
                encodingGuess: [
                  { encoding: 'windows-1251', sample: 'B-1;Хлеб ржаной;3,50' },
                  { encoding: 'iso-8859-2', sample: 'B-1;Őëĺá đćŕíîé;3,50' },
                  { encoding: 'windows-1252', sample: 'B-1;Õëåá ðæàíîé;3,50' },
                ],
              },
        ),
      ),
    );
    const zone = screen.getByRole('region', { name: 'Drop a file here' });
    await fireEvent.drop(zone, {
      dataTransfer: { files: [new File([CSV], 'excel.csv', { type: 'text/csv' })] },
    });
    const guess = await screen.findByRole('region', { name: 'The encoding was a guess' });
    expect(within(guess).getByText('B-1;Őëĺá đćŕíîé;3,50')).toBeTruthy();
    expect(
      (within(guess).getByRole('button', { name: 'Read as windows-1251' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    await fireEvent.click(within(guess).getByRole('button', { name: 'Use iso-8859-2' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({ encoding: 'iso-8859-2' }),
    );
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'The encoding was a guess' })).toBeNull(),
    );
  });

  it('names the tool that wrote the file, and sends the reading choices and the bot', async () => {
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      status: () => ok(null),
      listBots: () => ok([{ id: 'bot_1', name: 'Bakery news', channel: 'web', description: null }]),
      previewUpload: () =>
        ok(
          preview({
            source: 'Hootsuite bulk file',
            firstRowIsData: true,
            headers: ['Column 1', 'Column 2'],
            mapping: { 'Column 1': 'scheduled_at', 'Column 2': 'text' },
          }),
        ),
    });
    const shell = new Shell(transport);
    await shell.start();
    render(ImportScreen, { context: shellContext(shell) });
    await pick('12/01/2099 09:00,Hello\n', 'hootsuite.csv');
    expect(await screen.findByText('Read as: Hootsuite bulk file')).toBeTruthy();
    const firstRow = screen.getByLabelText<HTMLInputElement>(
      'The first row is data (the file has no header row)',
    );
    expect(firstRow.checked).toBe(true);
    await fireEvent.change(screen.getByLabelText('Encoding'), {
      target: { value: 'windows-1251' },
    });
    await vi.waitFor(() =>
      expect(screen.getByRole('option', { name: 'Bakery news' })).toBeTruthy(),
    );
    await fireEvent.change(screen.getByLabelText('Bot for rows without one'), {
      target: { value: 'bot_1' },
    });
    await fireEvent.click(firstRow);
    await vi.waitFor(() =>
      expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
        encoding: 'windows-1251',
        bot: 'bot_1',
        firstRowIsData: false,
      }),
    );
  });

  it('gives rows without a bot the only bot, so dated posts can be scheduled', async () => {
    const bot = { id: 'bot_1', name: 'Bakery news', channel: 'web', status: null, pending: 0 };
    const { transport } = await setup(() => ok(preview()), {
      listBots: () => ok([{ ...bot, description: null }]),
    });
    await pick(CSV);
    await vi.waitFor(() =>
      expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
        queue: true,
        bot: 'bot_1',
      }),
    );
  });

  it('disables Undo by itself once one of the imported posts is published', async () => {
    const { transport } = await setup(() => ok(preview()));
    transport.answer('importUpload', () =>
      ok(result({ inserted: 1, batch: 'batch-3', written: true })),
    );
    // The core's list of imports says which can no longer be undone: no post of it is read here.
    let cannotUndo: string | null = null;
    transport.answer('listImports', () => ok([{ ...BATCH_7, id: 'batch-3', cannotUndo }]));
    await pick(CSV);
    await fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const undo = await screen.findByRole('button', { name: 'Undo import' });
    expect(undo).toHaveProperty('disabled', false);
    const item = outboxItem(1, 'create_post', {
      postId: 5,
      state: 'done',
      priority: 1,
      attempts: 1,
      idempotencyKey: 'k',
      remoteId: 'p_5',
    });
    cannotUndo = '1 of its posts has gone to the platform';
    transport.emit({ type: 'done', item, remoteId: 'p_5' });
    await vi.waitFor(() => expect(undo).toHaveProperty('disabled', true));
    expect(transport.callsOf('listPosts')).toEqual([]);
    expect(screen.getByText(/on the platform already, so it can no longer be undone/)).toBeTruthy();
  });

  it('fills free slots: previews again with the option, and shows each undated row’s time', async () => {
    const slot = Date.UTC(2099, 0, 5, 16, 30);
    const withSlots = (input: { fillSlots?: boolean }) =>
      input.fillSlots
        ? {
            invalid: 0,
            errors: [],
            slots: [{ row: 3, botId: 'bot_1', at: slot }],
            slotCount: 1,
            slotSpan: { first: slot, last: slot },
          }
        : { invalid: 0, errors: [] };
    const { transport } = await setup((input) =>
      ok(
        preview({
          sample: [
            { row: 2, cells: ['Hello', '2099-01-05 09:00', 'a'] },
            { row: 3, cells: ['Undated', '', 'b'] },
          ],
          result: result(withSlots(input)),
        }),
      ),
    );
    transport.answer('importUpload', (input) =>
      ok(result({ ...withSlots(input as { fillSlots?: boolean }), inserted: 2, written: true })),
    );
    await pick(CSV);
    await screen.findByRole('table', { name: /The first 2 rows as read/ });
    expect(screen.queryByRole('columnheader', { name: /Free slot/ })).toBeNull();

    const queue = screen.getByRole('checkbox', {
      name: 'Schedule posts that have a time (else they stay drafts)',
    });
    expect(queue).toHaveProperty('checked', true);
    await fireEvent.click(queue);
    expect(queue).toHaveProperty('checked', false);
    const fill = screen.getByRole('checkbox', { name: 'Fill free slots' });
    expect(
      document.getElementById(fill.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toMatch(/Rows without a time go into the next free posting slots of their bot/);
    await fireEvent.click(fill);
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({ fillSlots: true });
    // Filling slots schedules every row, so the queue option is held on.
    expect(queue).toHaveProperty('checked', true);
    expect(queue).toHaveProperty('disabled', true);

    const header = await screen.findByRole('columnheader', { name: 'Free slot in Europe/Berlin' });
    const table = header.closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    const slotColumn = [...header.parentElement!.children].indexOf(header);
    const cells = rows.map((row) => row.children[slotColumn]?.textContent?.trim());
    expect(cells).toEqual(['', formatDateTime(slot, 'Europe/Berlin')]);
    const when = `${formatDateTime(slot, 'Europe/Berlin')} (Europe/Berlin)`;
    expect(
      screen
        .getByText(/will go into free posting slots/)
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe(`1 row without a time will go into free posting slots: ${when}.`);

    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(transport.callsOf('importUpload').at(-1)).toMatchObject({ fillSlots: true });
    const outcome = (await screen.findByRole('heading', { name: 'Result' })).closest('section')!;
    expect(within(outcome).getByText(/went into free posting slots/).textContent).toContain(when);

    // Slots are for posts: the option goes, and products never ask for it.
    await fireEvent.click(screen.getByRole('radio', { name: 'Products' }));
    expect(screen.queryByRole('checkbox', { name: 'Fill free slots' })).toBeNull();
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
      kind: 'products',
      fillSlots: false,
    });
  });

  it('shows rows left out as repeats apart from the errors, and allows duplicates on request', async () => {
    const repeat = {
      row: 2,
      column: 'text',
      value: 'Hello',
      message:
        'The same text as post 12 of bot_1, going out 2099-01-06 09:00 (Europe/Berlin), within the 3-day duplicate window; left out',
    };
    const { transport } = await setup((input) =>
      ok(
        preview({
          result: input.allowDuplicates
            ? result()
            : result({ duplicates: 1, warnings: [repeat], warningCount: 1 }),
        }),
      ),
    );
    transport.answer('importUpload', () =>
      ok(
        result({
          inserted: 0,
          duplicates: 1,
          warnings: [repeat],
          warningCount: 1,
          written: true,
          batch: 'b',
        }),
      ),
    );
    await pick(CSV);
    const warnings = await screen.findByRole('region', { name: '1 row left out as repeats' });
    const line = within(warnings).getByRole('listitem').textContent?.replace(/\s+/g, ' ').trim();
    expect(line).toBe(
      'Row 2 “Hello”: The same text as post 12 of bot_1, going out 2099-01-06 09:00 (Europe/Berlin), within the 3-day duplicate window; left out',
    );
    expect(warnings.textContent).toContain('choose “Allow duplicates”');
    // Apart from the errors: their own list, and in the table a warned cell, not an invalid one.
    const errors = screen.getByRole('region', { name: '1 row has errors' });
    expect(within(errors).queryByText(/The same text/)).toBeNull();
    const table = screen.getByRole('table', { name: /The first 2 rows as read/ });
    const warned = within(table).getByText('Hello').closest('td')!;
    expect(warned.getAttribute('aria-invalid')).toBeNull();
    expect(
      document.getElementById(warned.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe(repeat.message);
    expect(table.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);

    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const outcome = (await screen.findByRole('heading', { name: 'Result' })).closest('section')!;
    expect(within(outcome).getByText('Left out as repeats').nextElementSibling?.textContent).toBe(
      '1',
    );
    expect(within(outcome).getByRole('region', { name: '1 row left out as repeats' })).toBeTruthy();

    // Drafts are not checked, so the option waits for scheduling; then it previews again.
    const allow = screen.getByRole('checkbox', { name: 'Allow duplicates' });
    const schedule = screen.getByRole('checkbox', {
      name: 'Schedule posts that have a time (else they stay drafts)',
    });
    await fireEvent.click(schedule);
    expect(allow).toHaveProperty('disabled', true);
    await fireEvent.click(schedule);
    await fireEvent.click(allow);
    expect(transport.callsOf('previewUpload').at(-1)).toMatchObject({
      queue: true,
      allowDuplicates: true,
    });
  });

  it('lists past imports from the core, undoes one from the list, and shows the rest as they are', async () => {
    const batch = (patch: Partial<ImportBatch>) =>
      importBatch({ at: Date.parse('2099-01-01T08:00:00Z'), ...patch });
    let history = [
      batch({}),
      batch({
        id: 'batch-0',
        fileName: 'shop.csv',
        kind: 'products',
        cannotUndo: 'still importing',
      }),
      batch({
        id: 'batch-s',
        fileName: 'sent.csv',
        cannotUndo: '1 of its posts has gone to the platform',
      }),
    ];
    const { transport, shell } = await setup(() => ok(preview()), {
      listImports: () => ok(history),
      undoImport: () => {
        history = [batch({ cannotUndo: 'undone already', undoneAt: 1 }), ...history.slice(1)];
        return ok({ kind: 'posts', removed: 2, restored: 0 });
      },
    });

    const list = (await screen.findByRole('heading', { name: 'Past imports' })).closest('section')!;
    const week = await within(list).findByRole('listitem', { name: /^week\.csv, / });
    expect(week.textContent).toContain('2 new, 1 invalid');
    const shop = within(list).getByRole('listitem', { name: /^shop\.csv, / });
    expect(within(shop).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(shop.textContent).toContain('Cannot be undone: still importing');
    const sent = within(list).getByRole('listitem', { name: /^sent\.csv, / });
    expect(sent.textContent).toContain('Cannot be undone: 1 of its posts has gone to the platform');

    await fireEvent.click(within(week).getByRole('button', { name: 'Undo' }));
    await fireEvent.click(within(week).getByRole('button', { name: 'Yes, undo it' }));
    expect(transport.callsOf('undoImport')).toEqual([{ batch: 'batch-1' }]);
    await vi.waitFor(() => expect(within(list).getByText(/^Undone /)).toBeTruthy());
    expect(within(list).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(shell.notices.list.map((notice) => notice.text)).toContain(
      'Import undone: 2 posts removed',
    );
    // An import from elsewhere (the CLI, another window) appears when the core says posts changed.
    history = [batch({ id: 'batch-2', fileName: 'cli.csv' }), ...history];
    transport.emit({ type: 'changed', what: 'posts' });
    expect(await within(list).findByRole('listitem', { name: /^cli\.csv, / })).toBeTruthy();
  });

  it('offers See on calendar after an import, opening the calendar at its first post', async () => {
    const { transport, shell } = await setup(() => ok(preview()));
    const firstAt = Date.parse('2099-01-05T08:00:00Z');
    transport.answer('importUpload', () =>
      ok(result({ inserted: 1, batch: 'batch-7', written: true })),
    );
    transport.answer('listImports', () => ok([{ ...BATCH_7, firstAt }]));
    await pick(CSV);
    await fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'See on calendar' }));
    expect(shell.screen).toBe('calendar');
    // 08:00 UTC is 09:00 in the user's Berlin.
    expect(shell.calendarDate).toBe('2099-01-05');
  });

  it('exports products as CSV with the Excel byte-order mark, as a download', async () => {
    const { transport } = await setup(() => ok(preview()));
    transport.answer('exportText', () =>
      ok({ fileName: 'pressroom-products-2026-11-23.csv', csv: '\ufeffsku,name\r\n', rows: 0 }),
    );
    await fireEvent.change(screen.getByLabelText('What to export'), {
      target: { value: 'products' },
    });
    await fireEvent.click(screen.getByLabelText('For Excel (adds a byte-order mark)'));
    await fireEvent.click(screen.getByRole('button', { name: 'Export products' }));
    expect(transport.callsOf('exportText')).toEqual([{ kind: 'products', bom: true }]);
    await vi.waitFor(() => expect(downloads).toHaveLength(1));
    expect(await bytesOf(downloads[0]!)).toBe('\ufeffsku,name\r\n');
  });
});
