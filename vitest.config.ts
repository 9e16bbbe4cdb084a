import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// Projects do not inherit the root's test options, so each names its own time limits: generous,
// because CI machines run two projects side by side on two cores.
const limits = { testTimeout: 20_000, hookTimeout: 20_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**'],
          environment: 'node',
          globalSetup: ['test/support/run-temp.ts'],
          ...limits,
        },
      },
      {
        // Component and state tests: Svelte compiled for the browser, in jsdom.
        plugins: [svelte()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['test/renderer/setup.ts'],
          globalSetup: ['test/support/run-temp.ts'],
          ...limits,
        },
      },
      {
        // The renderer in Chromium (test/support/browser.ts) against the web host on the demo workspace.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/run-temp.ts', 'test/e2e/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
