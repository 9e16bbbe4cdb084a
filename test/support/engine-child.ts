// A publishing engine in a child process, for the crash test: publishes until the queue is empty,
// with short retry steps so a test run stays fast. Killed at random moments by its parent.
import { Pressroom } from '../../main/core/pressroom';

const pressroom = new Pressroom({
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
await pressroom.queue.publishUntilEmpty();
// Another engine holds the workspace's publisher lease: this one stood by and sent nothing.
const standingBy = pressroom.queue.status().paused !== null;
pressroom.close();
process.stdout.write(standingBy ? 'standby\n' : 'empty\n');
