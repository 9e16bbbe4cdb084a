// Temporal in the renderer's build (browser): the browser's own where it has one (Chromium 144 on:
// Electron's and the test browser's), else the polyfill, loaded on its own before the app mounts
// (main.ts). The first screen no longer loads the polyfill's 55 KiB that it never runs there.
// renderer/vite.config.ts hands this module to every `temporal-polyfill` import of the build; type
// checks and tests use the package itself. No top-level await: a module awaiting at load would
// make the bundler split the first screen's script into a score of small files.
import type { Temporal as TemporalApi } from 'temporal-polyfill';

export let Temporal: typeof TemporalApi;

/** Sets Temporal: at once where the browser has its own, else once the polyfill is loaded. */
export async function loadTemporal(): Promise<void> {
  Temporal =
    (globalThis as { Temporal?: typeof TemporalApi }).Temporal ??
    (await import('temporal-polyfill')).Temporal;
}
