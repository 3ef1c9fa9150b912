import type { PermissionMode } from '../../../src/contracts/index.ts';
import type { Access, Effect } from '../../../src/tools/index.ts';
import { expect, test } from 'bun:test';
import { loadShellParser, parseRuleList, type PermissionCall, type PermissionPolicy } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';

// decideLoaded (the synchronous core the decision tables test) needs the grammar loaded; code awaits decidePermission, which loads it.
await loadShellParser();

export const PROJECT = '/work/proj';
export const HOME = '/home/ada';

export function policy(opts: { mode?: PermissionMode; allow?: string[]; deny?: string[]; ask?: string[]; roots?: string[] } = {}): PermissionPolicy {
  return {
    mode: opts.mode ?? 'default',
    allow: parseRuleList(opts.allow ?? []),
    deny: parseRuleList(opts.deny ?? []),
    ...(opts.ask === undefined ? {} : { ask: parseRuleList(opts.ask) }),
    roots: opts.roots ?? [PROJECT],
    projectRoot: PROJECT,
    home: HOME,
  };
}

export function bash(command: string): PermissionCall {
  return { toolName: 'Bash', effect: 'execute', intent: { ruleName: 'Bash', subject: command, paths: [], summary: command } };
}

/**
 * One test per command: code a deny rule cannot read asks under a bare `Bash` allow rule when a command deny
 * rule (`Bash(rm:*)`) is in force, and is allowed when none is.
 */
export function testOpaqueAsks(commands: readonly string[]): void {
  for (const command of commands) {
    test(`${JSON.stringify(command)} asks when command deny rules are in force`, () => {
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny: ['Bash(rm:*)'] }))).toMatchObject({ kind: 'ask', cause: 'unmatchable_command' });
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'] })).kind).toBe('allow');
    });
  }
}

/** One test per command: under a bare `Bash` allow rule, the deny rule `Bash(rm:*)` still refuses it. */
export function testDeniedByRm(commands: readonly string[]): void {
  for (const command of commands) {
    test(`denies ${JSON.stringify(command)}`, () => {
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny: ['Bash(rm:*)'] }))).toEqual({
        kind: 'deny',
        reason: 'denied by the rule "Bash(rm:*)"',
        rule: 'Bash(rm:*)',
      });
    });
  }
}

function fileCall(toolName: string, ruleName: string, effect: Effect, access: Access, paths: string[]): PermissionCall {
  return {
    toolName,
    effect,
    intent: { ruleName, subject: paths[0], paths: paths.map((path) => ({ path, access })), summary: `${toolName} ${paths.join(' ')}` },
  };
}

export const read = (...paths: string[]): PermissionCall => fileCall('Read', 'Read', 'read', 'read', paths);
export const edit = (...paths: string[]): PermissionCall => fileCall('Edit', 'Edit', 'write', 'write', paths);
export const grep = (...paths: string[]): PermissionCall => fileCall('Grep', 'Read', 'read', 'read', paths);

export function fetchCall(host: string): PermissionCall {
  return { toolName: 'web_fetch', effect: 'network', intent: { ruleName: 'WebFetch', subject: host, paths: [], summary: `fetch https://${host}/` } };
}
