/**
 * Which bash the Bash tool runs. On Linux and macOS, `bash` from PATH. On
 * Windows, Git Bash (the bash of Git for Windows): beside the `git` on PATH,
 * then where its installer puts it; a `bash` on PATH only if it is not
 * System32's, which starts WSL (another machine with other paths). Undefined
 * when there is none, so the tool can say what to install.
 */
import { win32 } from 'node:path';

export interface BashHost {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  which(name: string): string | undefined;
  exists(path: string): boolean;
}

export const INSTALL_GIT_BASH = 'bash was not found: on Windows the Bash tool runs Git Bash; install Git for Windows (https://git-scm.com/download/win), or put its bin folder (with bash.exe) on PATH';

export function findBash(host: BashHost): string | undefined {
  if (host.platform !== 'win32') return 'bash';
  const candidates: string[] = [];
  const git = host.which('git');
  // git.exe lives in <Git>\cmd or <Git>\bin (or <Git>\mingw64\bin); bash.exe in <Git>\bin.
  if (git !== undefined) {
    const dir = win32.dirname(git);
    candidates.push(win32.join(dir, '..', 'bin', 'bash.exe'), win32.join(dir, '..', '..', 'bin', 'bash.exe'));
  }
  for (const base of [host.env.ProgramFiles, host.env['ProgramFiles(x86)'], host.env.LOCALAPPDATA === undefined ? undefined : win32.join(host.env.LOCALAPPDATA, 'Programs')]) {
    if (base !== undefined) candidates.push(win32.join(base, 'Git', 'bin', 'bash.exe'));
  }
  const found = candidates.find((c) => host.exists(c));
  if (found !== undefined) return found;
  const onPath = host.which('bash');
  const systemRoot = (host.env.SystemRoot ?? 'C:\\Windows').toLowerCase();
  if (onPath !== undefined && !win32.normalize(onPath).toLowerCase().startsWith(win32.join(systemRoot, 'system32').toLowerCase())) return onPath;
  return undefined;
}
