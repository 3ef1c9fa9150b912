// The permission gate for Bash under the OS sandbox: the grant a question adds, and "always" for a command run without the sandbox.
import { describe, expect, test } from 'bun:test';
import type { AgentEvent } from '../../src/agent/index.ts';
import { checkPermission, type GateDeps } from '../../src/agent/permission-gate.ts';
import { bashTool } from '../../src/tools/builtin/bash/index.ts';
import { decidePermission, parseRuleList, type PermissionPolicy, type Rule } from '../../src/tools/index.ts';


const ROOT = '/work/proj';

function policy(allow: Rule[] = []): PermissionPolicy {
  return { mode: 'default', allow, deny: [], roots: [ROOT], projectRoot: ROOT, home: '/home/ada', osSandbox: true };
}

async function askOnce(command: string, sandbox: 'workspace-write' | 'off', allow: Rule[] = []) {
  const events: AgentEvent[] = [];
  const granted: string[] = [];
  const deps: GateDeps = {
    policy: policy(allow),
    emit: (e) => events.push(e),
    ask: () => Promise.resolve({ behavior: 'allow', remember: 'project' }),
    grant: (_rule, text) => granted.push(text),
    beforeAsk: () => Promise.resolve(),
    signal: new AbortController().signal,
  };
  const input = { command, sandbox };
  const result = await checkPermission({ tool: bashTool, input, intent: bashTool.intent(input, { cwd: ROOT, roots: [ROOT] }), toolUseId: 'tu1' }, deps);
  const request = events.find((e) => e.type === 'permission_request');
  return { result, request, granted };
}

describe('a sandboxed Bash question', () => {
  test('carries the grant approving it adds', async () => {
    const write = await askOnce('make build', 'workspace-write');
    expect(write.request).toMatchObject({ grant: { level: 'workspace-write', text: expect.stringContaining(`write access to ${ROOT} and the temp folder`) } });
    const off = await askOnce('docker ps', 'off');
    expect(off.request).toMatchObject({ grant: { level: 'off', text: expect.stringContaining('outside the sandbox') } });
    expect(off.result).toMatchObject({ ok: true, sandbox: 'off' });
  });

  test('"always" for sandbox: "off" stores the exact command, which then runs unsandboxed without asking', async () => {
    const { granted } = await askOnce('npm   test', 'off');
    // Exact, not the prefix rule `Bash(npm test:*)` an ordinary "always" would store.
    expect(granted).toEqual(['Bash(npm test)']);
    const call = { toolName: 'Bash', effect: 'execute' as const, intent: { ruleName: 'Bash', subject: 'npm test', paths: [], summary: 'npm test', sandboxRequest: 'off' as const } };
    expect((await decidePermission(call, policy(parseRuleList(granted))))).toMatchObject({ kind: 'allow', sandbox: 'off' });
    // The rule covers that line only; and a prefix rule never lifts the sandbox.
    expect((await decidePermission({ ...call, intent: { ...call.intent, subject: 'npm test && curl x' } }, policy(parseRuleList(granted)))).kind).toBe('ask');
    expect((await decidePermission(call, policy(parseRuleList(['Bash(npm test:*)'])))).kind).toBe('ask');
  });

  test('bypassPermissions and plan still never run it unsandboxed', async () => {
    const call = { toolName: 'Bash', effect: 'execute' as const, intent: { ruleName: 'Bash', subject: 'npm test', paths: [], summary: 'npm test', sandboxRequest: 'off' as const } };
    for (const mode of ['bypassPermissions', 'plan'] as const) {
      expect((await decidePermission(call, { ...policy(parseRuleList(['Bash(npm test)'])), mode })).kind).toBe('deny');
    }
  });
});
