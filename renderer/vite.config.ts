// Builds the renderer (browser) into dist/renderer, which the web host and Electron both load.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const nativeTemporal = fileURLToPath(new URL('src/temporal.ts', import.meta.url));

/** Every `temporal-polyfill` import but temporal.ts's own goes to renderer/src/temporal.ts. */
const temporalWhereNative: Plugin = {
  name: 'pressroom-temporal-where-native',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source === 'temporal-polyfill' && importer !== nativeTemporal ? nativeTemporal : null,
};

export default defineConfig({
  root: here,
  // Relative asset URLs: Electron loads the files from disk, the web host from its root.
  base: './',
  plugins: [temporalWhereNative, svelte()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The strict CSP forbids inline scripts; Vite's module preload polyfill would be one.
    modulePreload: { polyfill: false },
    // Rolldown's note that plugins took most of a build's time is about a busy machine, not about
    // the sources; quiet builds show only what needs fixing.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
