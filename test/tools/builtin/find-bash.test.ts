// Which bash the Bash tool runs on each platform (the host injected): PATH's on Linux and macOS; on Windows Git Bash
// beside git or where its installer puts it, never System32's WSL launcher; none found says what to install.
import { describe, expect, test } from 'bun:test';
import { findBash, INSTALL_GIT_BASH, type BashHost } from '../../../src/tools/builtin/bash/find-bash.ts';

function host(platform: NodeJS.Platform, programs: Record<string, string>, files: string[], env: Record<string, string> = {}): BashHost {
  return { platform, env, which: (name) => programs[name], exists: (path) => files.includes(path) };
}

const WIN_ENV = { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', SystemRoot: 'C:\\WINDOWS' };

describe('findBash', () => {
  test('Linux and macOS: bash from PATH, as before', () => {
    expect(findBash(host('linux', {}, []))).toBe('bash');
    expect(findBash(host('darwin', {}, []))).toBe('bash');
  });

  test('Windows: Git Bash beside the git on PATH', () => {
    const git = 'D:\\Tools\\Git\\cmd\\git.exe';
    expect(findBash(host('win32', { git }, ['D:\\Tools\\Git\\bin\\bash.exe'], WIN_ENV))).toBe('D:\\Tools\\Git\\bin\\bash.exe');
    expect(findBash(host('win32', { git: 'D:\\Tools\\Git\\mingw64\\bin\\git.exe' }, ['D:\\Tools\\Git\\bin\\bash.exe'], WIN_ENV))).toBe('D:\\Tools\\Git\\bin\\bash.exe');
  });

  test('Windows: where the installer puts it, system-wide or per user', () => {
    expect(findBash(host('win32', {}, ['C:\\Program Files\\Git\\bin\\bash.exe'], WIN_ENV))).toBe('C:\\Program Files\\Git\\bin\\bash.exe');
    expect(findBash(host('win32', {}, ['C:\\Users\\u\\AppData\\Local\\Programs\\Git\\bin\\bash.exe'], WIN_ENV))).toBe('C:\\Users\\u\\AppData\\Local\\Programs\\Git\\bin\\bash.exe');
  });

  test('Windows: System32’s bash (WSL) is not taken; another bash on PATH is', () => {
    expect(findBash(host('win32', { bash: 'C:\\Windows\\System32\\bash.exe' }, [], WIN_ENV))).toBeUndefined();
    expect(findBash(host('win32', { bash: 'C:\\msys64\\usr\\bin\\bash.exe' }, [], WIN_ENV))).toBe('C:\\msys64\\usr\\bin\\bash.exe');
  });

  test('none: the message says what to install, in one line', () => {
    expect(findBash(host('win32', {}, [], WIN_ENV))).toBeUndefined();
    expect(INSTALL_GIT_BASH).toContain('install Git for Windows (https://git-scm.com/download/win)');
    expect(INSTALL_GIT_BASH).not.toContain('\n');
  });
});
