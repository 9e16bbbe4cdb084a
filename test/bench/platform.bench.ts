// npm run bench:platform — requests per second of the reference server on loopback.
// The server runs in its own process (as `cli platform`), the load comes from this one over
// keep-alive connections, so the figures are the server's, not the load generator's.
import { Agent, request } from 'node:http';
import { startPlatformCli } from '../support/cli';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const {
  child,
  base_url: baseUrl,
  token,
  admin_token: adminToken = '',
} = await startPlatformCli(['--seed', 'demo', '--plan', 'enterprise', '--admin']);
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(method: string, url: string, bearer: string, body?: unknown): Promise<number> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${bearer}`,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// The benchmark measures throughput, not the plan: lift the account's limit.
const origin = new URL(baseUrl).origin;
await send('PATCH', `${origin}/admin/v1/accounts/acct_1`, adminToken, {
  rate_limit: 1_000_000_000,
});

async function measure(label: string, call: (n: number) => Promise<number>) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const deadline = performance.now() + SECONDS * 1000;
  let sequence = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const status = await call(sequence++);
      latencies.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share: number) => (latencies[Math.floor(latencies.length * share)] ?? 0).toFixed(2);
  const codes = [...statuses].map(([code, count]) => `${code}×${count}`).join(' ');
  console.log(
    `${label.padEnd(28)} ${(latencies.length / elapsed).toFixed(0).padStart(6)} req/s   p50 ${at(0.5)} ms   p99 ${at(0.99)} ms   (${codes})`,
  );
}

console.log(`reference server on loopback, ${CONCURRENCY} connections, ${SECONDS} s each`);
await measure('GET /posts?per_page=20', () => send('GET', `${baseUrl}/posts?per_page=20`, token));
await measure('GET /bots/{id}', () => send('GET', `${baseUrl}/bots/bot_1`, token));
await measure('POST /posts', (n) =>
  send('POST', `${baseUrl}/posts`, token, { bot_id: 'bot_1', text: `Bench post ${n}` }),
);
await measure('POST /products', (n) =>
  send('POST', `${baseUrl}/products`, token, {
    sku: `BENCH-${n}`,
    name: 'Bench',
    price: '1.00',
    currency: 'USD',
  }),
);
agent.destroy();
child.kill('SIGTERM');
