// Vitest global setup for the end-to-end project (Node): brings the interface up to date the way
// `serve` does (so every test serves what the sources say now), and finds the browser once, so a
// machine without one fails the whole run at once with the sentence saying how to get one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findBrowser } from '../support/browser';

export default async function setup(): Promise<void> {
  await promisify(execFile)(process.execPath, ['main/app/launch.mjs', 'build']);
  const browser = await findBrowser();
  console.log(`e2e: Chromium from ${browser.source} (${browser.executablePath})`);
}
