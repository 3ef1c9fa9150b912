// setpriv runs only where the command would hold capabilities: behind the seccomp loader, for a caller running as root.
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../../../src/sandbox/os/launcher.ts';
import { applySeccompPath } from '../../../src/sandbox/os/seccomp-helper.ts';
import { sandboxSupport } from '../../../src/sandbox/index.ts';

const tools = { setpriv: '/usr/bin/setpriv' };
const cmd = ['bash', '-c', 'true'];

describe('launch', () => {
  test('root behind the loader: setpriv empties every capability set and sets no_new_privs, before the limits', () => {
    expect(launch(tools, { loader: true, root: true }, cmd, ['prlimit', '--nproc=9', '--'])).toEqual([
      '/usr/bin/setpriv',
      '--inh-caps=-all',
      '--ambient-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
      'prlimit',
      '--nproc=9',
      '--',
      ...cmd,
    ]);
  });

  test('not root, or no loader: the command (behind its limits) with nothing in front', () => {
    expect(launch(tools, { loader: true, root: false }, cmd)).toEqual(cmd);
    expect(launch(tools, { loader: false, root: true }, cmd, ['prlimit', '--'])).toEqual(['prlimit', '--', ...cmd]);
    expect(launch(tools, { loader: false, root: false }, cmd)).toEqual(cmd);
  });
});

const support = sandboxSupport();
const loader = applySeccompPath();
const canSwitchUser = process.geteuid?.() === 0 && support.available && support.bwrap !== undefined && support.setpriv !== undefined && loader !== null;

describe.skipIf(!canSwitchUser)('what the chain without setpriv leaves a caller that is not root', () => {
  /** `script` run as nobody through bubblewrap (as prepareCommand starts it) and, with `withLoader`, the seccomp loader. */
  // Where nobody can reach it: not under the test run's own folder (mode 700).
  const dir = canSwitchUser ? mkdtempSync('/var/tmp/moat-launcher-') : '';
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const asNobody = (script: string, withLoader: boolean): string => {
    chmodSync(dir, 0o755);
    const helper = join(dir, 'apply-seccomp');
    copyFileSync(loader as string, helper);
    chmodSync(helper, 0o755);
    const denied = join(dir, 'denied');
    writeFileSync(denied, 'SECRET\n');
    chmodSync(denied, 0o000);
    const bwrap = [support.bwrap as string, '--new-session', '--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--cap-drop', 'ALL', '--'];
    const argv = [support.setpriv as string, '--reuid=65534', '--regid=65534', '--clear-groups', '--', ...bwrap, ...(withLoader ? [helper] : []), 'sh', '-c', script.replaceAll('DENIED', denied)];
    const r = Bun.spawnSync(argv, { stderr: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    return `${r.stdout.toString()}${r.stderr.toString()}`;
  };
  const probe = 'id -u; grep -E "^Cap(Inh|Prm|Eff|Amb)|NoNewPrivs" /proc/self/status; cat DENIED; unshare -U true 2>/dev/null || echo no-userns';

  for (const withLoader of [true, false]) {
    // Without the loader (a command granted Unix sockets) nothing blocks a new user namespace; it holds nothing more there.
    test(`${withLoader ? 'behind the loader' : 'bubblewrap alone'}: no capability in any set, no_new_privs, the denied file refused${withLoader ? ', no new user namespace' : ''}`, () => {
      const out = asNobody(probe, withLoader);
      expect(out).toMatch(/^65534$/m);
      for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapAmb']) expect(out).toMatch(new RegExp(`^${set}:\\s+0{16}$`, 'm'));
      expect(out).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(out).toContain('Permission denied');
      expect(out).not.toContain('SECRET');
      if (withLoader) expect(out).toContain('no-userns');
    });
  }
});
