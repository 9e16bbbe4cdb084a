// Builds the renderer (browser) into dist/renderer, which the web host and Electron both load.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset URLs: Electron loads the files from disk, the web host from its root.
  base: './',
  plugins: [svelte()],
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
