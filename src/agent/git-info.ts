/**
 * Git facts for the system prompt and the session row. Runs `git` directly
 * (a few ms each); a folder outside a repository simply yields `undefined`.
 */
export interface GitInfo {
  root: string;
  branch: string;
  /** `git status --short`, capped. */
  status: string;
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    const r = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'ignore', stdin: 'ignore' });
    return r.exitCode === 0 ? r.stdout.toString().trimEnd() : undefined;
  } catch {
    return undefined; // git not installed
  }
}

const STATUS_CAP = 2000;

export function gitInfo(cwd: string): GitInfo | undefined {
  // One process for the root and the branch; a repository without commits has no HEAD to name.
  const head = git(cwd, ['rev-parse', '--show-toplevel', '--abbrev-ref', 'HEAD']);
  const [root, named] = head === undefined ? [git(cwd, ['rev-parse', '--show-toplevel']), undefined] : head.split('\n');
  if (!root) return undefined;
  const branch = named && named !== 'HEAD' ? named : (git(cwd, ['branch', '--show-current']) || git(cwd, ['rev-parse', '--short', 'HEAD']) || 'HEAD');
  let status = git(cwd, ['status', '--short']) ?? '';
  if (status.length > STATUS_CAP) status = `${status.slice(0, STATUS_CAP)}\n… (truncated)`;
  return { root, branch, status };
}
