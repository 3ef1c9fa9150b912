// Which OS sandbox backend each platform gets, with the host injected: bubblewrap on Linux, Seatbelt on macOS, none on
// Windows (said in one line) — and that the one wrapper file is the only door into the sandbox runtime's internals.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chooseBackend, SANDBOX_EXEC, type SandboxHost } from '../../../src/sandbox/os/backend.ts';

function host(platform: NodeJS.Platform, programs: Record<string, string> = {}, files: string[] = []): SandboxHost {
  return { platform, which: (name) => programs[name], exists: (path) => files.includes(path) };
}

describe('chooseBackend', () => {
  test('Linux: bubblewrap with socat, setpriv and prlimit', () => {
    expect(chooseBackend(host('linux', { bwrap: '/usr/bin/bwrap', socat: '/usr/bin/socat', setpriv: '/usr/bin/setpriv', prlimit: '/usr/bin/prlimit' }))).toEqual({ available: true, platform: 'linux', backend: 'bubblewrap', bwrap: '/usr/bin/bwrap', socat: '/usr/bin/socat', setpriv: '/usr/bin/setpriv', prlimit: '/usr/bin/prlimit' });
    expect(chooseBackend(host('linux', { bwrap: '/usr/bin/bwrap', socat: '/usr/bin/socat', setpriv: '/usr/bin/setpriv' }))).toMatchObject({ available: false, reason: 'prlimit (util-linux) is not on PATH; install it (Debian/Ubuntu: apt install util-linux)' });
  });

  test('Linux without bubblewrap or socat: unavailable, saying what to install', () => {
    expect(chooseBackend(host('linux', { socat: '/usr/bin/socat' }))).toEqual({ available: false, platform: 'linux', backend: 'bubblewrap', reason: 'bubblewrap (bwrap) is not on PATH; install it (Debian/Ubuntu: apt install bubblewrap socat)' });
    expect(chooseBackend(host('linux', { bwrap: '/usr/bin/bwrap' }))).toMatchObject({ available: false, reason: 'socat is not on PATH; install it (Debian/Ubuntu: apt install socat)' });
  });

  test('macOS: Seatbelt through /usr/bin/sandbox-exec, never a sandbox-exec found on PATH', () => {
    expect(chooseBackend(host('darwin', {}, [SANDBOX_EXEC]))).toEqual({ available: true, platform: 'darwin', backend: 'seatbelt', sandboxExec: '/usr/bin/sandbox-exec' });
    expect(chooseBackend(host('darwin', { 'sandbox-exec': '/tmp/evil/sandbox-exec' }))).toEqual({
      available: false,
      platform: 'darwin',
      backend: 'seatbelt',
      reason: '/usr/bin/sandbox-exec is missing; macOS ships it, so this system has been altered',
    });
  });

  test('Windows: no backend, one line that says so (bash, hooks and MCP servers run unsandboxed in auto, refused in required)', () => {
    const choice = chooseBackend(host('win32', { bash: 'C:\\Program Files\\Git\\bin\\bash.exe' }));
    expect(choice).toEqual({ available: false, platform: 'win32', reason: 'Windows has no OS sandbox for the processes moat starts (bash, hooks, MCP servers)' });
    expect(choice.reason).not.toContain('\n');
  });

  test('other platforms: none, naming the platform', () => {
    expect(chooseBackend(host('freebsd'))).toEqual({ available: false, platform: 'freebsd', reason: 'the OS sandbox is not implemented on freebsd (Linux: bubblewrap, macOS: Seatbelt)' });
  });
});

describe('the sandbox runtime’s internals', () => {
  test('are imported in src/ only by src/sandbox/os/runtime-internals.ts, and the package is pinned exactly', () => {
    const src = resolve(import.meta.dir, '../../../src');
    const importers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && readFileSync(join(src, f), 'utf8').includes('@anthropic-ai/sandbox-runtime/dist/'))
      .sort();
    expect(importers).toEqual(['sandbox/os/runtime-internals.ts']);
    const pkg = JSON.parse(readFileSync(resolve(src, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['@anthropic-ai/sandbox-runtime']).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
