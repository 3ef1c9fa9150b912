/**
 * The session's private temp folder: made by moat on the first command that
 * needs it (mode 700, named after moat's PID), bound at the system temp path
 * inside the sandbox, and removed when moat exits. Folders left by a moat that
 * died without removing its own (its PID gone) are removed when the next one
 * makes its folder, and so are the MCP servers' own (`moat-mcp-<pid>-…`) that
 * a killed moat could not remove.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nodeOs } from '../../util/index.ts';

const PREFIX = 'moat-session-';
let made: string | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: there is such a process, another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove `moat-session-<pid>-*` and `moat-mcp-<pid>-*` folders in `temp` whose moat is gone. */
export function removeStaleSessionTemps(temp: string): void {
  let names: string[];
  try {
    names = readdirSync(temp);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^moat-(?:session|mcp)-(\d+)-/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(temp, name), { recursive: true, force: true });
  }
}

/** The system temp folder as a real path: where the private one is bound inside the sandbox. */
export function systemTemp(): string {
  const t = nodeOs().tmpdir();
  try {
    return realpathSync(t);
  } catch {
    return t;
  }
}

/** This session's private temp folder, made on first use. */
export function sessionTemp(): string {
  if (made !== undefined) return made;
  const temp = systemTemp();
  removeStaleSessionTemps(temp);
  const dir = mkdtempSync(join(temp, `${PREFIX}${process.pid}-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return (made = dir);
}
