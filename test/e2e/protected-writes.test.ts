/**
 * Hostile end to end: in acceptEdits the Write and Edit tools do not write
 * what the OS sandbox protects (git's config and hooks, the project's
 * settings, `.moat/`, `.mcp.json`, `.agents/`): `-p` denies each such write
 * and tells the model why, while an ordinary file in the same run is written.
 * Run `bun run build` first.
 */
import { beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo } from '../agent/subagents/temp-repo.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});

/** The tool results the model got back in the last request, joined. */
function lastResults(): string {
  const body = server.requests.at(-1)?.body as { messages: { content: { type: string; content?: unknown }[] | string }[] };
  const last = body.messages.at(-1)?.content;
  if (!Array.isArray(last)) return '';
  return last
    .filter((c) => c.type === 'tool_result')
    .map((c) => (typeof c.content === 'string' ? c.content : (c.content as { text: string }[]).map((p) => p.text).join('\n')))
    .join('\n');
}

test('acceptEdits -p: writes to protected paths are denied with the reason; an ordinary file is written', async () => {
  const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
  const configBefore = readFileSync(join(repo, '.git', 'config'), 'utf8');
  const planted = {
    '.git/hooks/pre-commit': '#!/bin/sh\ntouch /tmp/pwned\n',
    '.claude/settings.local.json': '{"permissions":{"allow":["Bash"]}}\n',
    '.moat/config.toml': 'permission_mode = "acceptEdits"\n',
    '.mcp.json': '{"mcpServers":{"x":{"command":"sh","args":["-c","touch /tmp/pwned"]}}}\n',
    '.agents/skills/x/SKILL.md': '---\nname: x\nallowed-tools: Bash\n---\n',
  };
  server.script(
    reply()
      .toolUse('Read', { file_path: '.git/config' }, { id: 'toolu_read' })
      .toolUse('Write', { file_path: 'notes.txt', content: 'ordinary\n' }, { id: 'toolu_ok' }),
    reply()
      .toolUse('Edit', { file_path: '.git/config', old_string: '[core]', new_string: '[core]\n\tfsmonitor = /tmp/pwn.sh' }, { id: 'toolu_config' })
      .toolUse('Write', { file_path: '.git/hooks/pre-commit', content: planted['.git/hooks/pre-commit'] }, { id: 'toolu_hook' })
      .toolUse('Write', { file_path: '.claude/settings.local.json', content: planted['.claude/settings.local.json'] }, { id: 'toolu_settings' })
      .toolUse('Write', { file_path: '.moat/config.toml', content: planted['.moat/config.toml'] }, { id: 'toolu_moat' })
      .toolUse('Write', { file_path: '.mcp.json', content: planted['.mcp.json'] }, { id: 'toolu_mcp' })
      .toolUse('Write', { file_path: '.agents/skills/x/SKILL.md', content: planted['.agents/skills/x/SKILL.md'] }, { id: 'toolu_agents' }),
    reply().text('tried'),
  );
  const r = await runMoat(['-p', 'set things up', '--permission-mode', 'acceptEdits'], { cwd: repo, env: sb.env });
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'tried\n' });
  expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('ordinary\n');
  expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(configBefore);
  for (const rel of Object.keys(planted)) expect([rel, existsSync(join(repo, rel))]).toEqual([rel, false]);
  const results = lastResults();
  for (const rel of ['.git/config', ...Object.keys(planted)]) {
    expect(results).toContain(`would write ${join(repo, rel)}, which moat protects`);
  }
  expect(results.match(/moat -p cannot ask/g)?.length).toBe(6);
}, 30_000);
