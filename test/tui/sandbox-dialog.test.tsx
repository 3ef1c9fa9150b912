// The approval dialog for a sandboxed Bash call says which grant approving it adds.
import { afterEach, describe, expect, test } from 'bun:test';
import type { AgentEvent } from '../../src/agent/index.ts';
import { describeGrant } from '../../src/tools/index.ts';
import { finished } from './fake-client.ts';
import { KEYS, start, unmountAll } from './harness.tsx';

afterEach(unmountAll);

function bashRequest(command: string, level: 'workspace-write' | 'off'): AgentEvent[] {
  const input = { command, description: 'Build it', sandbox: level };
  return [
    { type: 'tool_call_started', toolUseId: 'tu1', name: 'Bash', index: 1 },
    { type: 'tool_call_ready', toolUseId: 'tu1', name: 'Bash', input },
    {
      type: 'permission_request',
      requestId: 'req1',
      toolUseId: 'tu1',
      toolName: 'Bash',
      input,
      intent: { ruleName: 'Bash', subject: command, paths: [], summary: 'Build it', cwd: '/work/project', sandboxRequest: level },
      grant: { level, text: describeGrant(level, ['/work/project']) },
    },
  ];
}

async function dialogFor(level: 'workspace-write' | 'off') {
  const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...bashRequest('make all', level), { awaitPermission: 'req1' }, finished('end_turn')]));
  await h.until('Ask moat');
  await h.type('build');
  await h.press(KEYS.enter);
  await h.until('Run a command');
  return h;
}

describe('the sandbox grant in the approval dialog', () => {
  test('workspace-write names the folders it may write and where the network goes', async () => {
    const h = await dialogFor('workspace-write');
    await h.until('/work/project');
    const frame = h.frame().replace(/\s+/g, ' ');
    expect(frame).toContain('make all');
    expect(frame).toContain('Runs in the sandbox with write access to /work/project and the temp folder; network only to the hosts in [sandbox.network] allow');
  });

  test('off says there is no sandbox', async () => {
    const h = await dialogFor('off');
    await h.until('outside the sandbox');
    expect(h.frame().replace(/\s+/g, ' ')).toContain('Runs outside the sandbox, with your full access to files, network and environment');
  });
});
