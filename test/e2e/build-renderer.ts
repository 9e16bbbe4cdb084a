// Vitest global setup for the end-to-end project (Node): builds the renderer once, so the web
// host serves what the sources say now, not a stale dist/renderer.
import { build } from 'vite';

export default async function setup(): Promise<void> {
  await build({ configFile: 'renderer/vite.config.ts', logLevel: 'warn' });
}
