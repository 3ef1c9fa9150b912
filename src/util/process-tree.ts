/**
 * Signals a process and every process below it. A sandboxed command's tree
 * does not die with its first process: bubblewrap's inner process (the new
 * session and PID namespace) is reparented and keeps the pipes open, so the
 * tree is read from /proc before anything is signalled. Elsewhere (macOS),
 * only the process itself.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid of each process, read from /proc/<pid>/stat (empty where there is no /proc). */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name may hold spaces and parentheses: the fields after its last ')' are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid);
    if (list === undefined) children.set(ppid, [Number(entry)]);
    else list.push(Number(entry));
  }
  return children;
}

/** Sends `signal` to `pid` and all its descendants (children first are found, then all are signalled). */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  const children = parents();
  const all: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift() as number;
    if (all.includes(p)) continue;
    all.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  for (const p of all) {
    try {
      process.kill(p, signal);
    } catch {
      // Gone already.
    }
  }
}
