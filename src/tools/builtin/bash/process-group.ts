/**
 * Signals a whole process group. Commands run detached (their own group, with
 * the shell's pid as the group id), so `kill(-pid)` also reaches background
 * children and grandchildren that a plain kill of the shell would orphan.
 */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is already gone, which is the goal.
    return false;
  }
}
