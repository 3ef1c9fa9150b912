/**
 * Ends a process group moat started: the Bash tool's commands, hooks, `!cmd`
 * and cron runs all start detached (their own group, the child's pid as its
 * id), so `kill(-pgid)` also reaches the background children and
 * grandchildren a plain kill of the child would orphan.
 */

/** Signals the whole group; false when it is already gone (which is the goal). */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export interface GroupStopper {
  /** SIGTERM to the group now, SIGKILL to what is left after the grace period (once, however often it is called). */
  stop(): void;
  /** The child is done: no SIGKILL later (its pid could be reused by then). */
  dispose(): void;
}

export function groupStopper(pgid: number | undefined, graceMs: number): GroupStopper {
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    stop: () => {
      if (pgid === undefined || !signalGroup(pgid, 'SIGTERM') || killTimer !== undefined) return;
      killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
      // It only mops up stragglers: it must not keep moat alive on its own.
      killTimer.unref();
    },
    dispose: () => clearTimeout(killTimer),
  };
}
