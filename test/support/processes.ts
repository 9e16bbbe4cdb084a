// Processes in odd states, for the publishing lease's tests, and a process's memory (Linux).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

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

/** VmRSS or VmHWM (peak) of a process, in MB; null where Linux's /proc is not. */
export function memoryMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | null {
  const status = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(status)) return null;
  const found = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(status, 'utf8'));
  return found ? Number(found[1]) / 1024 : null;
}

/**
 * Starts a process's peak (VmHWM) over from its memory now (Linux: clear_refs 5), so it measures
 * what follows, not what came before (a serving process that built its bundle first holds a
 * build's peak). False where it cannot.
 */
export function resetPeakMemory(pid: number | undefined): boolean {
  const file = `/proc/${pid}/clear_refs`;
  if (pid === undefined || !existsSync(file)) return false;
  writeFileSync(file, '5');
  return true;
}
