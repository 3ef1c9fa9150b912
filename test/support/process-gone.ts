/** Whether a process the test started has ended: gone, or a zombie nobody reaps yet. */
import { existsSync, readFileSync } from 'node:fs';

/** Running, not merely a zombie waiting for init to reap it (which can take a while in containers). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to end; whether it did. */
export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await Bun.sleep(20);
  }
  return !alive(pid);
}
