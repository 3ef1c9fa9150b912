// `[sandbox] mode/scrub_env`, `[sandbox.filesystem]`, `[sandbox.network]`: merged, and a project may only tighten them.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

function world() {
  const root = tmp();
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  write(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return { home, repo, env: { HOME: home }, userFile: join(home, '.config', 'moat', 'config.toml'), projectFile: join(repo, '.moat', 'config.toml') };
}

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof MoatError) return e.message;
    throw e;
  }
  throw new Error('expected a MoatError');
}

describe('[sandbox] for processes', () => {
  test('user grants and project denies merge; paths expand; the project adds variables to scrub', () => {
    const w = world();
    write(
      w.userFile,
      [
        '[sandbox]',
        'mode = "auto"',
        'scrub_env = ["MY_*"]',
        '[sandbox.filesystem]',
        'allow_write = ["~/.cache/pip", "rel"]',
        'deny_read = ["~/secrets"]',
        '[sandbox.network]',
        'allow = ["pypi.org", "*.pythonhosted.org"]',
        'allow_unix_sockets = ["~/.docker/run/docker.sock"]',
        '',
      ].join('\n'),
    );
    write(w.projectFile, ['[sandbox]', 'mode = "required"', 'scrub_env = ["PROJECT_KEY"]', '[sandbox.filesystem]', 'deny_write = ["generated"]', '[sandbox.network]', 'deny = ["evil.example"]', ''].join('\n'));
    expect(loadConfig({ cwd: w.repo, env: w.env }).osSandbox).toEqual({
      mode: 'required',
      scrubEnv: ['MY_*'],
      scrubEnvExtra: ['PROJECT_KEY'],
      allowWrite: [join(w.home, '.cache/pip'), join(w.home, '.config/moat/rel')],
      denyRead: [join(w.home, 'secrets')],
      denyWrite: [join(w.repo, 'generated')],
      allowNetwork: ['pypi.org', '*.pythonhosted.org'],
      denyNetwork: ['evil.example'],
      allowUnixSockets: [join(w.home, '.docker/run/docker.sock')],
      allowLoopback: false,
      limits: {},
    });
  });

  test('a project cannot turn the sandbox off or grant writes or hosts', () => {
    const w = world();
    write(w.projectFile, '[sandbox]\nmode = "off"\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toBe(
      '.moat/config.toml:2: sandbox.mode: a project may only make the sandbox stricter; "off" can only be set in the user config',
    );
    write(w.projectFile, '[sandbox.filesystem]\nallow_write = ["/"]\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toBe(
      '.moat/config.toml:2: sandbox.filesystem.allow_write: a project cannot grant write access; set it in the user config',
    );
    write(w.projectFile, '[sandbox.network]\nallow = ["*.example.com"]\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toBe(
      '.moat/config.toml:2: sandbox.network.allow: a project cannot grant network access; set it in the user config',
    );
    write(w.projectFile, '[sandbox.network]\nallow_unix_sockets = ["/run/docker.sock"]\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toBe(
      '.moat/config.toml:2: sandbox.network.allow_unix_sockets: a project cannot grant Unix sockets; set it in the user config',
    );
    write(w.projectFile, '[sandbox.network]\nallow_loopback = true\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toBe(
      '.moat/config.toml:2: sandbox.network.allow_loopback: a project cannot grant loopback access; set it in the user config',
    );
  });

  test('resource limits: sizes in bytes; a project may lower them, not raise them', () => {
    const w = world();
    write(w.userFile, '[sandbox]\npids_limit = 256\nmemory_limit = "2 GiB"\nfile_size_limit = "100 MB"\n\n[sandbox.network]\nallow_loopback = true\n');
    const user = loadConfig({ cwd: w.repo, env: w.env }).osSandbox;
    expect(user.limits).toEqual({ pids: 256, memoryBytes: 2 * 2 ** 30, fileSizeBytes: 100e6 });
    expect(user.allowLoopback).toBe(true);
    write(w.projectFile, '[sandbox]\nmemory_limit = "512MiB"\n');
    expect(loadConfig({ cwd: w.repo, env: w.env }).osSandbox.limits?.memoryBytes).toBe(512 * 2 ** 20);
    write(w.projectFile, '[sandbox]\npids_limit = 100000\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toContain('a project may only lower pids_limit');
    write(w.userFile, '[sandbox]\nmemory_limit = "lots"\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toContain('must be a size such as "2 GiB"');
  });

  test('a bad mode or key names the file, line and key', () => {
    const w = world();
    write(w.userFile, '[sandbox]\nmode = "strict"\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toContain('config.toml:2: sandbox.mode:');
    write(w.userFile, '[sandbox.network]\nallowed = ["x"]\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toContain('sandbox.network');
  });
});
