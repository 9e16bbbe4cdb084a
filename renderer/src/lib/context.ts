// How components reach the app-wide state (browser): handed to `mount` once, read by every
// screen, so tests can mount any screen with a Shell over a fake transport.
import { getContext } from 'svelte';
import type { Shell } from '../state/shell.svelte';

const KEY = Symbol('shell');

/** The context to mount the app (or one screen in a test) with. */
export function shellContext(shell: Shell): Map<symbol, Shell> {
  return new Map([[KEY, shell]]);
}

export function useShell(): Shell {
  const shell = getContext<Shell | undefined>(KEY);
  if (!shell) throw new Error('mount with shellContext(shell) to use useShell()');
  return shell;
}
