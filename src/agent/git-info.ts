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
  const root = git(cwd, ['rev-parse', '--show-toplevel']);
  if (root === undefined) return undefined;
  const branch = git(cwd, ['branch', '--show-current']) || git(cwd, ['rev-parse', '--short', 'HEAD']) || 'HEAD';
  let status = git(cwd, ['status', '--short']) ?? '';
  if (status.length > STATUS_CAP) status = `${status.slice(0, STATUS_CAP)}\n… (truncated)`;
  return { root, branch, status };
}
