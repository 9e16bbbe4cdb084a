// Processes in odd states, for the publishing lease's tests (Linux).
import { spawn } from 'node:child_process';

/**
 * A zombie: a process that has exited and that its parent never reaps, so kill(pid, 0) still
 * answers. The shell's child exits at once; the shell becomes `sleep` and never waits for it.
 * `end` stops the parent, which lets the zombie go.
 */
export async function startZombie(): Promise<{ pid: number; end: () => void }> {
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30']);
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  // Until the child has exited it is a live process, not yet a zombie.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { pid, end: () => parent.kill() };
}

/** A live process that holds a lease and never beats it (hung, or suspended). */
export function startSilentProcess(): { pid: number; end: () => void } {
  const child = spawn('sleep', ['30']);
  return { pid: child.pid ?? 0, end: () => child.kill() };
}
