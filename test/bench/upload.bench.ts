// npm run bench:upload — a big file through the web host (#27 case 1), as the wizard sends it:
// uploaded (streamed to a private file), previewed (a dry run of the whole file) and imported,
// in `serve` on a fresh demo workspace in its own process. Meanwhile this process calls `status`
// every 20 ms and times each answer from when it was due; it prints the longest and the 95th
// percentile beside the same calls' times with the core idle, measured first in the same run
// (target: answered within 100 ms). Also the size of each answer, and the serving process's peak
// resident memory beside its memory once started (target: under 300 MB; Linux's /proc only).
// Files: a 16 MiB products file, every row bad; then a 63 MiB products file, every row valid
// (about 280,000 rows); then two other 63 MiB files at once, as #27 took the host down with.
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { request } from 'node:http';
import { join } from 'node:path';
import { serve } from '../e2e/harness';
import { memoryMb, resetPeakMemory } from '../support/processes';
import { benchFolder } from './folders';

const DESCRIPTION = 'Stone-baked rye with caraway, sourdough started the night before. '.repeat(3);
const folder = benchFolder('pressroom-bench-upload-');

async function generate(path: string, bytes: number, line: (index: number) => string) {
  const out = createWriteStream(path);
  out.write('sku,name,price,description\n');
  let size = 0;
  for (let index = 1; size < bytes; index++) {
    const text = line(index);
    size += text.length;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const served = await serve();
const token = new URL(served.url).hash.replace('#token=', '');
const headers = (type: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': type });

/** POSTs `body` to the served host and answers its text (node:http: no time limit on answers). */
function post(path: string, type: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${served.origin}${path}`,
      { method: 'POST', headers: { ...headers(type), 'Content-Length': body.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

async function call(operation: string, input: unknown): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const text = await post(
    `/api/call/${operation}`,
    'application/json',
    Buffer.from(JSON.stringify(input)),
  );
  return { text, ms: performance.now() - started };
}

/** Status answer times (ms, from when each call was due) while `work` runs, and its result. */
async function statusWhile<T>(work: () => Promise<T>): Promise<{ result: T; waits: number[] }> {
  let done = false;
  const waits: number[] = [];
  const polling = (async () => {
    while (!done) {
      const due = performance.now() + 20;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await call('status', {});
      waits.push(performance.now() - due);
    }
  })();
  const result = await work().finally(() => (done = true));
  await polling;
  return { result, waits };
}

const describeWaits = (waits: number[]) => {
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
  return `longest ${at(1).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms over ${waits.length} calls`;
};

try {
  const startedMb = memoryMb(served.child.pid, 'VmRSS');
  // The peak of what follows, not of a bundle the serving process may have built first.
  resetPeakMemory(served.child.pid);
  const idle = await statusWhile(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
  console.log(`status, core idle (baseline): ${describeWaits(idle.waits)}`);
  /** A file just under the limit (MAX_UPLOAD_BYTES, 64 MiB), as #27's were: a shop's export. */
  const valid = (prefix: string) => ({
    name: `valid-63MiB-${prefix}.csv`,
    bytes: 63 * 1024 * 1024,
    // A few lines of description to a product.
    line: (i: number) => `${prefix}-${i},Rye loaf ${i},3.80,${DESCRIPTION}\n`,
  });
  const files = [
    {
      name: 'all-bad-16MiB.csv',
      bytes: 16 * 1024 * 1024,
      line: (i: number) => `B-${i},Rye loaf ${i},not a price,\n`,
    },
    valid('V'),
  ];
  /** Uploads, previews and imports one file, as the wizard does; its answers and their time. */
  const wizard = async (file: (typeof files)[number]) => {
    const path = join(folder, file.name);
    if (!existsSync(path)) await generate(path, file.bytes, file.line);
    const started = performance.now();
    const sent = await post(
      `/api/upload?name=${file.name}`,
      'application/octet-stream',
      readFileSync(path),
    );
    const { value } = JSON.parse(sent) as { value: { upload: string } };
    const preview = await call('previewUpload', { kind: 'products', upload: value.upload });
    const imported = await call('importUpload', {
      kind: 'products',
      upload: value.upload,
      onError: 'skip',
    });
    const summary = JSON.parse(imported.text) as { value: { inserted: number; invalid: number } };
    return `${file.name}: upload, preview and import in ${((performance.now() - started) / 1000).toFixed(1)} s (${summary.value.inserted} inserted, ${summary.value.invalid} invalid); answers ${(preview.text.length / 1024).toFixed(0)} KiB and ${(imported.text.length / 1024).toFixed(0)} KiB`;
  };
  for (const file of files) {
    const { result, waits } = await statusWhile(() => wizard(file));
    console.log(result);
    console.log(`  status meanwhile: ${describeWaits(waits)} (target: within 100 ms)`);
  }
  // #27's reproduction: two such files at once, of new products.
  const both = await statusWhile(() => Promise.all([wizard(valid('X')), wizard(valid('W'))]));
  console.log(`two at once:\n  ${both.result.join('\n  ')}`);
  console.log(`  status meanwhile: ${describeWaits(both.waits)} (target: within 100 ms)`);
  // `status` counts the catalog's products, so it costs more with the imported ones in it.
  const after = await statusWhile(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
  console.log(
    `status, core idle with the imported catalog (baseline): ${describeWaits(after.waits)}`,
  );
  const peakMb = memoryMb(served.child.pid, 'VmHWM');
  console.log(
    `serving process memory: ${startedMb?.toFixed(0) ?? '?'} MB once started (baseline), peak ${peakMb?.toFixed(0) ?? '?'} MB (target under 300 MB)`,
  );
} finally {
  await served.stop();
}
