// The web host under a big file (#27 case 1): an upload is streamed to a private file, the answer
// about it stays small however many rows are bad (the bad rows come as a file, on request), the
// core answers other calls meanwhile, and an unexpected failure says nothing of its details.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import { Session } from '../../main/core/session';
import { startWebHost } from '../../main/host/web';
import type { WebHost } from '../../main/host/web';
import { MAX_UPLOAD_BYTES } from '../../shared/upload-limits';
import { call } from '../../main/core/operations';

const open: { web: WebHost; session: Session }[] = [];
afterEach(async () => {
  for (const { web, session } of open.splice(0)) {
    await web.close();
    session.current.close();
  }
});

async function host() {
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-web-uploads-'));
  const session = await Session.open({
    folder,
    secrets: new FileSecretStore(folder),
    dbFile: join(folder, 'workspace.sqlite'),
    watch: false,
  });
  const web = await startWebHost({ session });
  open.push({ web, session });
  const call = async (operation: string, input: unknown) => {
    const response = await fetch(`${web.origin}/api/call/${operation}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    return { status: response.status, bytes: text.length, body: JSON.parse(text) as Answer };
  };
  const upload = async (fileName: string, content: Buffer) => {
    const response = await fetch(`${web.origin}/api/upload?name=${fileName}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(content),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };
  return { session, web, call, upload };
}

interface Answer {
  ok: boolean;
  value?: Record<string, unknown> & { result?: Record<string, unknown> };
  error?: { kind: string; message: string };
}

/** A products file of about `bytes` bytes whose every row has a price that is no price. */
function allBadProducts(bytes: number): { csv: Buffer; rows: number } {
  const header = 'sku,name,price\n';
  const line = (index: number) => `SKU-${index},Rye loaf number ${index},not a price\n`;
  const lines = [header];
  let size = header.length;
  let rows = 0;
  while (size < bytes) {
    const next = line(rows++);
    lines.push(next);
    size += next.length;
  }
  return { csv: Buffer.from(lines.join('')), rows };
}

/**
 * Calls `status` every 20 ms while `work` runs and answers the longest any call waited beyond
 * its turn: the time from when it was due to when its answer came back.
 */
async function longestStatusWait<T>(
  call: (operation: string, input: unknown) => Promise<{ status: number }>,
  work: Promise<T>,
): Promise<{ result: T; longest: number }> {
  let done = false;
  let longest = 0;
  const polling = (async () => {
    while (!done) {
      const due = performance.now() + 20;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await call('status', {})).status).toBe(200);
      longest = Math.max(longest, performance.now() - due);
    }
  })();
  const result = await work.finally(() => (done = true));
  await polling;
  return { result, longest };
}

describe('web host uploads', () => {
  it('answers a 16 MiB file of bad rows in a small answer, the bad rows on request, staying responsive', async () => {
    const { call, upload } = await host();
    const { csv, rows } = allBadProducts(16 * 1024 * 1024);
    const sent = await upload('bad.csv', csv);
    expect(sent).toMatchObject({ status: 200, body: { ok: true } });
    const { result: preview, longest } = await longestStatusWait(
      call,
      call('previewUpload', { kind: 'products', upload: sent.body.value?.upload }),
    );
    expect(preview.status).toBe(200);
    // The first errors and the count, not every row: well under a megabyte.
    expect(preview.bytes).toBeLessThan(1024 * 1024);
    const result = preview.body.value?.result as {
      invalid: number;
      errorCount: number;
      errors: unknown[];
      badRowsFile: string;
    };
    expect(result).toMatchObject({ invalid: rows, errorCount: rows });
    expect(result.errors.length).toBeLessThanOrEqual(200);
    // Generous for a shared test machine; `npm run bench:import-memory` gives the real figure.
    expect(longest).toBeLessThan(1000);
    const bad = await call('getBadRows', { id: result.badRowsFile });
    expect(bad.body).toMatchObject({ ok: true });
    const lines = String(bad.body.value?.csv).trimEnd().split('\r\n');
    expect(lines[0]).toBe('sku,name,price,error');
    expect(lines).toHaveLength(rows + 1);
  }, 120_000);

  it('streams an upload to a private file, refusing one over the limit', async () => {
    const { session, upload } = await host();
    const sent = await upload('week.csv', Buffer.from('text\nMonday\n'));
    expect(sent).toMatchObject({ status: 200, body: { ok: true } });
    const preview = await call(session.current, 'previewUpload', {
      kind: 'posts',
      upload: String(sent.body.value?.upload),
    });
    expect(preview.sample).toEqual([{ row: 2, cells: ['Monday'] }]);
    // Told by its length, before a byte is read.
    const tooBig = await upload('huge.csv', Buffer.alloc(MAX_UPLOAD_BYTES + 1, 'a'));
    expect(tooBig).toMatchObject({
      status: 413,
      body: { ok: false, error: { kind: 'invalid_input' } },
    });
    // Sent without a length, it is refused at the limit and nothing of it is kept.
    const { web } = open[0]!;
    const chunked = await fetch(`${web.origin}/api/upload?name=huge.csv`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/octet-stream' },
      body: new ReadableStream({
        start(controller) {
          for (let sent = 0; sent <= MAX_UPLOAD_BYTES; sent += 1024 * 1024)
            controller.enqueue(new Uint8Array(1024 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(await chunked.json()).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_input',
        message: 'file: huge.csv is over 64 MiB, the largest file an import takes',
      },
    });
    expect(
      await call(session.current, 'previewUpload', { kind: 'posts', upload: 'unknown' }).catch(
        (error: Error) => error.message,
      ),
    ).toBe('upload: this file is no longer kept: pick it again');
  });

  it('answers an unexpected failure 500 internal, its details kept for the log', async () => {
    const { session, call } = await host();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // An answer that cannot be written as JSON: a failure of the host itself, not of the input.
    vi.spyOn(session.current.queue, 'status').mockReturnValue({
      secret: 10n,
    } as unknown as ReturnType<typeof session.current.queue.status>);
    const answer = await call('status', {});
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      ok: false,
      error: { kind: 'internal', message: 'status failed unexpectedly; the log has the details' },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/BigInt/);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/status/), expect.any(TypeError));
    logged.mockRestore();
  });
});
