/** Files through which `moat agents stop ID` in another terminal reaches a background agent. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How `moat agents stop ID`, run in another terminal, reaches a background
 * agent inside a running moat: the owning process keeps `<id>.json` in the
 * control folder while the agent runs and watches for `<id>.stop`. Files
 * rather than signals, because one process runs many agents and a signal
 * cannot say which.
 */
export interface RunningAgentFile {
  agentId: string;
  pid: number;
  description: string;
  parentSessionId: string;
  sessionId?: string;
  cwd?: string;
  startedAt: number;
}

export function agentFile(dir: string, id: string): string {
  return join(dir, `${id}.json`);
}

export function stopFile(dir: string, id: string): string {
  return join(dir, `${id}.stop`);
}

export function announceAgent(dir: string, entry: RunningAgentFile): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(agentFile(dir, entry.agentId), `${JSON.stringify(entry)}\n`);
}

export function retireAgent(dir: string, id: string): void {
  rmSync(agentFile(dir, id), { force: true });
  rmSync(stopFile(dir, id), { force: true });
}

export function stopRequested(dir: string, id: string): boolean {
  return existsSync(stopFile(dir, id));
}

export function requestStop(dir: string, id: string): void {
  writeFileSync(stopFile(dir, id), `${Date.now()}\n`);
}

/** Agents announced in `dir` (by any moat process), oldest first. */
export function announcedAgents(dir: string): RunningAgentFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: RunningAgentFile[] = [];
  for (const n of names) {
    if (!n.endsWith('.json')) continue;
    try {
      out.push(JSON.parse(readFileSync(join(dir, n), 'utf8')) as RunningAgentFile);
    } catch {
      // A file being written or removed right now: skip it.
    }
  }
  return out.sort((a, b) => a.startedAt - b.startedAt);
}
