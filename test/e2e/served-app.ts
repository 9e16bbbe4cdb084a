// The e2e tests' set-up (Node, Vitest): one served demo workspace and one browser per describe
// block. Apart from harness.ts, which the benchmark and screenshot scripts load outside Vitest.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, serve } from './harness';
import type { Served } from './harness';

/**
 * A served demo workspace and a browser for the tests of one describe block: started before the
 * first test, stopped after the last.
 */
export function useServedApp(): { readonly served: Served; readonly browser: Browser } {
  const app = {} as { served: Served; browser: Browser };
  beforeAll(async () => {
    [app.served, app.browser] = await Promise.all([serve(), launchChromium()]);
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.served?.stop();
  });
  return app;
}
