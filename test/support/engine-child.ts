// A publishing engine in a child process, for the crash test: publishes until the queue is empty,
// with short retry steps so a test run stays fast. Killed at random moments by its parent. As the
// second engine (CRASH_SECOND) it makes one pass beside a live first one, on a clock
// CRASH_CLOCK_OFFSET_MS off (another machine's), and must stand by.
import { Workspace } from '../../main/core/workspace';
import { call } from '../../main/core/operations';

const offsetMs = Number(process.env.CRASH_CLOCK_OFFSET_MS ?? 0);
const pressroom = new Workspace({
  now: () => Date.now() + offsetMs,
  dbFile: process.env.CRASH_DB ?? '',
  apiBase: process.env.CRASH_API_BASE,
  token: process.env.CRASH_TOKEN,
  plan: 'enterprise',
  timeoutMs: 2_000,
  retryRules: { baseMs: 20, capMs: 200, maxAttempts: 1_000 },
});
// The parent times its kill from this line, so start-up speed (tsx, a cold disk) never decides
// whether a kill lands mid-publishing.
process.stdout.write('ready\n');
// The second engine looks once: waiting for the lease would wait for the first, which lives until
// the second has looked.
if (process.env.CRASH_SECOND) await call(pressroom, 'publishDue');
else await pressroom.queue.publishUntilEmpty();
// Another engine holds the workspace's publisher lease: this one stood by and sent nothing.
const standingBy = call(pressroom, 'status').paused !== null;
pressroom.close();
process.stdout.write(standingBy ? 'standby\n' : 'empty\n');
