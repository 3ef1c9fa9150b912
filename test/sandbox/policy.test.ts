// One process's grants from the session's policy and its level: read-only and workspace-write, and when it runs unsandboxed.
import { describe, expect, test } from 'bun:test';
import type { SandboxPolicy } from '../../src/contracts/index.ts';
import { DEFAULT_SCRUB_ENV, levelGrants, processPolicy } from '../../src/sandbox/index.ts';

const policy: SandboxPolicy = {
  mode: 'auto',
  active: true,
  scrubEnv: ['MY_*'],
  allowWrite: ['/cache'],
  denyRead: ['/secrets'],
  denyWrite: ['/work/docs'],
  allowNetwork: ['pypi.org'],
  denyNetwork: ['evil.example'],
  allowUnixSockets: ['/run/docker.sock'],
  allowLoopback: true,
  limits: { pids: 10 },
};
const rules = { denyRead: ['/work/.env'], denyWrite: ['/work/.npmrc'] };

describe('levelGrants', () => {
  test('read-only: only the temp folder (the roots are denied even there), no network, no sockets, no loopback', () => {
    expect(levelGrants('read-only', policy, ['/work'], rules)).toEqual({
      allowWrite: [],
      denyRead: ['/secrets', '/work/.env'],
      denyWrite: ['/work', '/work/docs', '/work/.npmrc'],
      allowNetwork: [],
      denyNetwork: ['evil.example'],
      allowUnixSockets: [],
      limits: { pids: 10 },
    });
  });

  test('workspace-write: the roots and the configured folders, the allowed hosts and sockets, loopback when the user allowed it', () => {
    expect(levelGrants('workspace-write', policy, ['/work'], rules)).toEqual({
      allowWrite: ['/work', '/cache'],
      denyRead: ['/secrets', '/work/.env'],
      denyWrite: ['/work/docs', '/work/.npmrc'],
      allowNetwork: ['pypi.org'],
      denyNetwork: ['evil.example'],
      allowUnixSockets: ['/run/docker.sock'],
      allowLoopback: true,
      limits: { pids: 10 },
    });
  });

  test('private addresses only where the composition root set them; no limits key without limits', () => {
    const g = levelGrants('read-only', { ...policy, allowPrivateNetwork: true, limits: undefined }, []);
    expect(g.allowPrivateNetwork).toBe(true);
    expect('limits' in g).toBe(false);
  });
});

describe('processPolicy', () => {
  const scope = (calls: string[]) => ({ roots: ['/work'], ruleDenies: () => (calls.push('resolved'), rules) });

  test('no policy, mode off or level off: unsandboxed, the scrub list kept, the deny rules never resolved (it walks folders)', () => {
    const calls: string[] = [];
    expect(processPolicy(undefined, 'workspace-write', scope(calls))).toMatchObject({ level: 'off', mode: 'off', scrubEnv: DEFAULT_SCRUB_ENV, grants: { allowWrite: [] } });
    expect(processPolicy({ ...policy, mode: 'off' }, 'read-only', scope(calls))).toMatchObject({ level: 'off', mode: 'off', scrubEnv: ['MY_*'] });
    expect(processPolicy(policy, 'off', scope(calls))).toMatchObject({ level: 'off', mode: 'off', scrubEnv: ['MY_*'] });
    expect(calls).toEqual([]);
  });

  test('sandboxed: the level, the mode, and the grants with the rules resolved once', () => {
    const calls: string[] = [];
    const p = processPolicy({ ...policy, mode: 'required' }, 'read-only', scope(calls));
    expect(p).toEqual({ level: 'read-only', mode: 'required', scrubEnv: ['MY_*'], grants: levelGrants('read-only', policy, ['/work'], rules) });
    expect(calls).toEqual(['resolved']);
  });
});
