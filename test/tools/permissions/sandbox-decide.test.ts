// Permission mode × OS sandbox grants for Bash, the hints -p gives, and redirections resolved where the command runs.
import { PERMISSION_MODES } from '../../../src/contracts/index.ts';
import { describe, expect, test } from 'bun:test';
import { denialHint, type PermissionCall } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { bash, policy, PROJECT } from './helpers.ts';

function sandboxed(command: string, request?: 'workspace-write' | 'off', cwd?: string): PermissionCall {
  const call = bash(command);
  return { ...call, intent: { ...call.intent, ...(request === undefined ? {} : { sandboxRequest: request }), ...(cwd === undefined ? {} : { cwd }) } };
}

function outcome(call: PermissionCall, opts: Parameters<typeof policy>[0] = {}): string {
  const d = decideLoaded(call, { ...policy(opts), osSandbox: true });
  return d.kind === 'allow' ? `allow ${d.sandbox ?? '?'}` : d.kind;
}

describe('mode × requested grant, sandbox on', () => {
  // Requested: nothing (read-only), workspace-write, off.
  const table: Record<string, [string, string, string]> = {
    default: ['allow read-only', 'ask', 'ask'],
    acceptEdits: ['allow workspace-write', 'allow workspace-write', 'ask'],
    plan: ['allow read-only', 'deny', 'deny'],
    bypassPermissions: ['allow workspace-write', 'allow workspace-write', 'deny'],
    dontAsk: ['allow read-only', 'deny', 'deny'],
  };
  test('covers every mode', () => expect(Object.keys(table).sort()).toEqual([...PERMISSION_MODES].sort()));
  for (const mode of PERMISSION_MODES) {
    test(mode, () => {
      expect([outcome(sandboxed('make'), { mode }), outcome(sandboxed('make', 'workspace-write'), { mode }), outcome(sandboxed('make', 'off'), { mode })]).toEqual(
        table[mode] ?? ['', '', ''],
      );
    });
  }

  test('an allow rule gives workspace-write without asking, but never removes the sandbox', () => {
    const opts = { allow: ['Bash(npm test:*)'] };
    expect(outcome(sandboxed('npm test'), opts)).toBe('allow workspace-write');
    expect(outcome(sandboxed('npm test -- a', 'workspace-write'), opts)).toBe('allow workspace-write');
    expect(outcome(sandboxed('npm test', 'off'), opts)).toBe('ask');
    expect(outcome(sandboxed('npm publish'), opts)).toBe('allow read-only');
  });

  test('deny rules apply first, whatever the sandbox', () => {
    expect(outcome(sandboxed('rm -rf x'), { deny: ['Bash(rm:*)'] })).toBe('deny');
    expect(outcome(sandboxed('echo x > .env'), { deny: ['Edit(.env)'] })).toBe('deny');
  });

  test('the question names the grant and suggests the command rule', () => {
    expect(decideLoaded(sandboxed('make build', 'workspace-write'), { ...policy(), osSandbox: true })).toEqual({
      kind: 'ask',
      reason: 'running "make build" asks for write access to the working folder',
      cause: 'sandbox_grant',
      outsidePaths: [],
      rules: ['Bash(make build)'],
      broaderRules: ['Bash(make build:*)'],
      acceptEditsWouldAllow: true,
      sandboxGrant: 'workspace-write',
    });
  });

  test('-p hints: acceptEdits or the rule for writes; the config for no sandbox', () => {
    const write = sandboxed('make build', 'workspace-write');
    const d = decideLoaded(write, { ...policy(), osSandbox: true });
    if (d.kind !== 'ask') throw new Error('expected ask');
    expect(denialHint(write, d)).toBe(
      'Permission denied: running "make build" asks for write access to the working folder, and moat -p cannot ask. Without `sandbox` it runs read-only (it may read files and write only to the temp folder). To allow writes, the user can re-run with --permission-mode acceptEdits or --allowedTools "Bash(make build)" (or "Bash(make build:*)"), or add the rule to [permissions] allow in .moat/config.toml.',
    );
    const off = sandboxed('docker ps', 'off');
    const o = decideLoaded(off, { ...policy(), osSandbox: true });
    if (o.kind !== 'ask') throw new Error('expected ask');
    expect(denialHint(off, o)).toContain('only [sandbox] mode = "off" in the user config');
  });

  test('without the sandbox, bash asks as before', () => {
    expect(decideLoaded(sandboxed('make'), policy()).kind).toBe('ask');
  });
});

describe('redirections resolve against the folder the command runs in', () => {
  test('from a sub-folder, `> ../.env` hits an Edit(.env) deny rule', () => {
    const call = sandboxed('echo x > ../.env', undefined, `${PROJECT}/sub`);
    expect(decideLoaded(call, policy({ deny: ['Edit(/.env)'] }))).toMatchObject({ kind: 'deny', rule: 'Edit(/.env)' });
    // The same text from the project root writes outside it: not the denied file.
    expect(decideLoaded(sandboxed('echo x > ../.env', undefined, PROJECT), policy({ deny: ['Edit(/.env)'] })).kind).not.toBe('deny');
  });

  test('from a sub-folder, an allow check sees the real target', () => {
    const call = sandboxed('echo x > out.txt', undefined, `${PROJECT}/sub`);
    const d = decideLoaded(call, policy({ allow: ['Bash(echo:*)', 'Edit(sub/**)'] }));
    expect(d.kind).toBe('allow');
    expect(decideLoaded(call, policy({ allow: ['Bash(echo:*)', 'Edit(/out.txt)'] })).kind).toBe('ask');
  });
});
