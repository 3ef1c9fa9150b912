// The macOS Seatbelt backend's profiles, generated on Linux: golden files per grant (reviewed line by line), and
// every protected path, deny rule and network choice of the policy found where it belongs in the profile.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { builtinDenyRead } from '../../../src/sandbox/index.ts';
import { PROTECTED_IN_ROOT } from '../../../src/sandbox/os/deny-list.ts';
import { prepareSeatbeltCommand, seatbeltPolicy } from '../../../src/sandbox/os/seatbelt-command.ts';
import { seatbeltProfile, unquoteWords } from '../../../src/sandbox/os/seatbelt-profile.ts';
import type { ProcessGrants } from '../../../src/sandbox/os/types.ts';
import { tempDir } from '../../support/temp.ts';

const GOLDEN = join(import.meta.dir, 'seatbelt-golden');
const HOME = '/Users/someone';
const ENV = { HOME, PATH: '/usr/bin:/bin' };

function project(): string {
  const root = tempDir('moat-seatbelt-');
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  return root;
}

function grants(over: Partial<ProcessGrants> = {}): ProcessGrants {
  return { allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [], ...over };
}

/** A path as the profile spells it inside a regex: SBPL strings double the regex's backslashes. */
function inRegex(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&');
}

/**
 * The profile with this run's paths and random log tag replaced by names, so it compares with the golden file.
 * (The temp folder's own parents would appear too: the golden files assume it is a top-level folder, /tmp.)
 */
function normalized(profile: string, root: string): string {
  let out = profile.replace(/CMD64_[A-Za-z0-9+/=]*_END_[A-Za-z0-9_]*_SBX/g, '<LOG-TAG>');
  const names: [string, string][] = [
    [root, '<PROJECT>'],
    [dirname(root), '<RUN-FOLDER>'],
    [realpathSync(tmpdir()), '<TMP>'],
    [homedir(), '<REAL-HOME>'],
  ];
  for (const [path, name] of names) out = out.split(path).join(name).split(inRegex(path)).join(name);
  // The deny-read list names this machine's SSH host keys, which only some machines have.
  return out
    .split('\n')
    .filter((line) => !line.includes('"/etc/ssh/ssh_host_') && line !== '  (literal "/etc/ssh")')
    .join('\n');
}

async function profileFor(level: 'read-only' | 'workspace-write' | 'workspace-write-network'): Promise<{ profile: string; root: string }> {
  const root = project();
  const g = level === 'read-only' ? grants() : grants({ allowWrite: [root], ...(level === 'workspace-write-network' ? { allowNetwork: ['registry.npmjs.org'] } : {}) });
  const network = level === 'workspace-write-network' ? { httpPort: 41001, socksPort: 41002 } : 'none';
  // moat started in the project: the runtime's own always-denied names (.bashrc, .vscode…) are anchored at moat's cwd.
  const cwd = process.cwd();
  process.chdir(root);
  try {
    return { profile: await seatbeltProfile(seatbeltPolicy('golden', { cwd: root, env: ENV, grants: g, mode: 'required' }, network)), root };
  } finally {
    process.chdir(cwd);
  }
}

describe('Seatbelt profiles match the reviewed golden files', () => {
  for (const level of ['read-only', 'workspace-write', 'workspace-write-network'] as const) {
    test(level, async () => {
      const { profile, root } = await profileFor(level);
      const file = join(GOLDEN, `${level}.sb`);
      // To review a change: UPDATE_GOLDEN=1 bun test test/sandbox/os/seatbelt-profile.test.ts, then read the diff.
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, normalized(profile, root));
      expect(normalized(profile, root)).toBe(readFileSync(file, 'utf8'));
    });
  }
});

/** The rules of one `(deny file-write*` … or `(deny file-read*` … block, as written. */
function blocks(profile: string, head: string): string[] {
  const out: string[] = [];
  for (let at = profile.indexOf(head); at >= 0; at = profile.indexOf(head, at + 1)) out.push(profile.slice(at, profile.indexOf('(with message', at)));
  return out;
}

describe('policy → profile', () => {
  test('every protected path of a writable root is denied for writing (and for creating and unlinking), under the allowed root', async () => {
    const { profile, root } = await profileFor('workspace-write');
    const allowWrite = blocks(profile, '(allow file-write*\n').join('');
    expect(allowWrite).toContain(`(subpath "${root}")`);
    const denyWrite = blocks(profile, '(deny file-write*\n').join('');
    const denyCreate = blocks(profile, '(deny file-write-unlink file-write-create\n').join('');
    for (const name of PROTECTED_IN_ROOT) {
      expect(denyWrite).toContain(`(subpath "${join(root, name)}")`);
      expect(denyCreate).toContain(`(subpath "${join(root, name)}")`);
    }
    // moat's own config is never writable either.
    expect(denyWrite).toContain(`(subpath "${join(HOME, '.config', 'moat')}")`);
    expect(denyWrite).toContain(`(subpath "${join(HOME, '.claude')}")`);
  });

  test('outside a repository the git paths are left to `git init`; the others stay protected', async () => {
    const root = tempDir('moat-seatbelt-');
    const profile = await seatbeltProfile(seatbeltPolicy('x', { cwd: root, env: ENV, grants: grants({ allowWrite: [root] }), mode: 'required' }, 'none'));
    const denyWrite = blocks(profile, '(deny file-write*\n').join('');
    expect(denyWrite).not.toContain(`(subpath "${join(root, '.git/hooks')}")`);
    expect(denyWrite).toContain(`(subpath "${join(root, '.mcp.json')}")`);
    expect(denyWrite).toContain(`(subpath "${join(root, '.moat')}")`);
  });

  test('every entry of the deny-read list, and the deny rules, are unreadable', async () => {
    const root = project();
    const g = grants({ allowWrite: [root], denyRead: [join(root, '.env')], denyWrite: [join(root, 'locked.txt')] });
    const profile = await seatbeltProfile(seatbeltPolicy('x', { cwd: root, env: ENV, grants: g, mode: 'required' }, 'none'));
    const denyRead = blocks(profile, '(deny file-read*\n').join('');
    for (const path of [...builtinDenyRead(ENV), join(root, '.env')]) expect(denyRead).toContain(`(subpath "${path}")`);
    expect(denyRead).toContain(`(subpath "${join(HOME, '.ssh')}")`);
    expect(denyRead).toContain(`(subpath "${join(HOME, '.aws')}")`);
    expect(blocks(profile, '(deny file-write*\n').join('')).toContain(`(subpath "${join(root, 'locked.txt')}")`);
  });

  test('read-only: only the temp folder is writable', async () => {
    const { profile, root } = await profileFor('read-only');
    expect(blocks(profile, '(allow file-write*\n').join('')).toBe(`(allow file-write*\n  (subpath "${realpathSync(tmpdir())}")\n  `);
    expect(profile).not.toContain(`(subpath "${root}")\n  (with`);
  });

  test('no hosts: no network rule at all; hosts: only the two proxy ports on loopback', async () => {
    const none = (await profileFor('workspace-write')).profile;
    expect(none).not.toMatch(/\(allow network/);
    const some = (await profileFor('workspace-write-network')).profile;
    expect(some.match(/\(allow network[^\n]*/g)).toEqual([
      '(allow network-bind (local ip "localhost:41001"))',
      '(allow network-inbound (local ip "localhost:41001"))',
      '(allow network-outbound (remote ip "localhost:41001"))',
      '(allow network-bind (local ip "localhost:41002"))',
      '(allow network-inbound (local ip "localhost:41002"))',
      '(allow network-outbound (remote ip "localhost:41002"))',
    ]);
    expect(some).toStartWith('(version 1)\n(deny default');
  });

  test('Unix sockets are allowed by path, only the ones granted', async () => {
    const root = project();
    const profile = await seatbeltProfile(seatbeltPolicy('x', { cwd: root, env: ENV, grants: grants({ allowWrite: [root], allowUnixSockets: ['/var/run/docker.sock'] }), mode: 'required' }, 'none'));
    expect(profile.match(/\(allow network[^\n]*/g)).toEqual([
      '(allow network-bind (local unix-socket (subpath "/var/run/docker.sock")))',
      '(allow network-outbound (remote unix-socket (subpath "/var/run/docker.sock")))',
    ]);
  });

  test('paths with quotes and spaces survive the runtime quoting unchanged', async () => {
    const root = join(project(), "it's a dir");
    mkdirSync(root);
    const profile = await seatbeltProfile(seatbeltPolicy('x', { cwd: root, env: ENV, grants: grants({ allowWrite: [root] }), mode: 'required' }, 'none'));
    expect(profile).toContain(`(subpath "${join(root, '.mcp.json')}")`);
  });
});

describe('prepareSeatbeltCommand', () => {
  test('runs the command under /usr/bin/sandbox-exec with the profile, the environment as given, and no proxy without hosts', async () => {
    const root = project();
    const env = { PATH: '/usr/bin:/bin', HOME };
    const prepared = await prepareSeatbeltCommand(['bash', '-c', 'echo hi'], { cwd: root, env: ENV, grants: grants({ allowWrite: [root] }), mode: 'required' }, { ...env }, '/usr/bin/sandbox-exec');
    expect(prepared.argv.slice(0, 2)).toEqual(['/usr/bin/sandbox-exec', '-p']);
    expect(prepared.argv.slice(3)).toEqual(['bash', '-c', 'echo hi']);
    expect(prepared.argv[2]).toStartWith('(version 1)');
    expect(prepared).toMatchObject({ env, sandboxed: true });
    expect(await prepared.finish()).toEqual([]);
  });

  test('with hosts: the proxy variables point at the loopback proxies whose ports the profile allows', async () => {
    const root = project();
    const prepared = await prepareSeatbeltCommand(['true'], { cwd: root, env: ENV, grants: grants({ allowWrite: [root], allowNetwork: ['example.com'] }), mode: 'required' }, { HOME }, '/usr/bin/sandbox-exec');
    const port = /^http:\/\/[^@]+@localhost:(\d+)$/.exec(prepared.env.HTTP_PROXY ?? '')?.[1];
    expect(port).toBeDefined();
    expect(prepared.argv[2]).toContain(`(allow network-outbound (remote ip "localhost:${port}"))`);
    expect(prepared.env.NO_PROXY).toBe('');
    expect(await prepared.finish()).toEqual([]);
  });
});

describe('the loopback proxies a Seatbelt command is given', () => {
  test('refuse a host not granted, and report the refusal for that command', async () => {
    const origin = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('served') });
    try {
      const root = project();
      const prepared = await prepareSeatbeltCommand(['true'], { cwd: root, env: ENV, grants: grants({ allowWrite: [root], allowNetwork: ['allowed.invalid'] }), mode: 'required' }, { HOME }, '/usr/bin/sandbox-exec');
      // The command itself, without sandbox-exec (Linux has none): its only way out is the proxy in its environment.
      // Async: the proxies answer from this process.
      const curl = Bun.spawn(['curl', '-sS', '-m', '10', `http://127.0.0.1:${origin.port}/`], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...prepared.env }, stdout: 'pipe', stderr: 'ignore' });
      const [out] = await Promise.all([new Response(curl.stdout).text(), curl.exited]);
      expect(out).not.toContain('served');
      const refused = await prepared.finish();
      expect(refused).toEqual([{ kind: 'network', target: `127.0.0.1:${origin.port}`, message: expect.stringContaining(`connection to 127.0.0.1:${origin.port} refused`) as unknown as string }]);
    } finally {
      await origin.stop(true);
    }
  });
});

describe('unquoteWords', () => {
  test('inverts the runtime quoting: bare words, single-quoted runs, and quotes inside them', () => {
    expect(unquoteWords(`env A=1 /usr/bin/sandbox-exec -p '(version 1)\n(deny default)' 'it'"'"'s' ''`)).toEqual(['env', 'A=1', '/usr/bin/sandbox-exec', '-p', '(version 1)\n(deny default)', "it's", '']);
  });
  test('refuses what it cannot read rather than guessing', () => {
    expect(() => unquoteWords(`-p '(version 1)`)).toThrow('unterminated');
  });
});
