/**
 * A project's `.claude/settings.json` with the compiled binary: deny rules
 * hold at once, allow rules and hooks only after `moat trust`; command hooks
 * block, rewrite, add context and keep the model working, as Claude Code's do.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

const requestText = (i: number) => JSON.stringify((server.requests[i]!.body as { messages: unknown[] }).messages.at(-1));

function settings(value: unknown): void {
  mkdirSync(join(sb.cwd, '.claude'), { recursive: true });
  writeFileSync(join(sb.cwd, '.claude', 'settings.json'), JSON.stringify(value, null, 2));
}

function hookScript(name: string, body: string): string {
  const dir = join(sb.cwd, '.claude', 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\ninput=$(cat)\n${body}\n`);
  chmodSync(file, 0o755);
  return `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`;
}

const json = (r: { stdout: string }) => JSON.parse(r.stdout) as { result: string; permission_denials: { tool_name: string }[] };

describe('.claude/settings.json and project trust', () => {
  test('deny rules hold without trust; allow rules wait for `moat trust`, with one line saying so', async () => {
    writeFileSync(join(sb.cwd, 'secret.txt'), 'TOP SECRET\n');
    settings({ permissions: { deny: ['Read(secret.txt)'], allow: ['Bash(touch:*)'] } });
    const script = () =>
      server.script(
        reply().toolUse('Read', { file_path: 'secret.txt' }).toolUse('Bash', { command: 'touch made.txt', sandbox: 'workspace-write' }).stop('tool_use'),
        reply().text('ok'),
      );
    script();
    const before = await runMoat(['-p', 'go', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(before.code).toBe(0);
    expect(before.stderr).toContain('.claude/settings.json: 1 allow rule ignored until you trust this folder (moat trust)');
    expect(json(before).permission_denials.map((d) => d.tool_name)).toEqual(['Read', 'Bash']);
    expect(requestText(1)).not.toContain('TOP SECRET');
    // The model (and the user, in the denial) is told which file and rule said no.
    expect(requestText(1)).toContain('is blocked by the deny rule \\"Read(secret.txt)\\" (from .claude/settings.json:3)');

    const trust = await runMoat(['trust'], { cwd: sb.cwd, env: sb.env });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain('.claude/settings.json: 1 allow rule');
    script();
    const after = await runMoat(['-p', 'go', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(after.stderr).not.toContain('ignored until you trust');
    // The deny rule still holds; the allow rule now runs the command.
    expect(json(after).permission_denials.map((d) => d.tool_name)).toEqual(['Read']);
    expect(Bun.file(join(sb.cwd, 'made.txt')).size).toBe(0);
    expect(await Bun.file(join(sb.cwd, 'made.txt')).exists()).toBe(true);

    const revoke = await runMoat(['trust', '--revoke'], { cwd: sb.cwd, env: sb.env });
    expect(revoke.stdout).toContain('is no longer trusted');
  });

  test('hooks: PreToolUse blocks (exit 2) and rewrites input, PostToolUse and UserPromptSubmit add context, Stop sends the model back once', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'AAA\n');
    writeFileSync(join(sb.cwd, 'b.txt'), 'BBB\n');
    settings({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo PROMPT-CONTEXT' }] }],
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: hookScript('no-rm.sh', `case "$input" in *'"rm '*) echo "no rm here" >&2; exit 2;; esac`) }] },
          {
            matcher: 'Read',
            hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"b.txt"}}}'` }],
          },
        ],
        PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"READ-CONTEXT"}}'` }] }],
        Stop: [{ hooks: [{ type: 'command', command: hookScript('stop.sh', `case "$input" in *'"stop_hook_active":false'*) echo "run the tests first" >&2; exit 2;; esac`) }] }],
      },
    });
    expect((await runMoat(['trust'], { cwd: sb.cwd, env: sb.env })).code).toBe(0);
    server.script(
      reply().toolUse('Bash', { command: 'rm -rf a.txt' }).stop('tool_use'),
      reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'),
      reply().text('done'),
      reply().text('really done'),
    );
    const r = await runMoat(['-p', 'go', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(json(r).result).toBe('really done');
    expect(requestText(0)).toContain('PROMPT-CONTEXT');
    expect(requestText(1)).toContain('A PreToolUse hook blocked this Bash call: no rm here');
    expect(await Bun.file(join(sb.cwd, 'a.txt')).exists()).toBe(true);
    // The hook's input was read, not the model's, and PostToolUse's context came with it.
    expect(requestText(2)).toContain('BBB');
    expect(requestText(2)).not.toContain('AAA');
    expect(requestText(2)).toContain('READ-CONTEXT');
    expect(requestText(3)).toContain('Stop hook feedback:\\nrun the tests first');
    expect(server.requests).toHaveLength(4);
  });

  test('a failing hook is one warning and the run goes on; an untrusted project runs no hook at all', async () => {
    settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo broken >&2; exit 1' }] }] } });
    server.script(reply().text('fine'));
    const untrusted = await runMoat(['-p', 'go'], { cwd: sb.cwd, env: sb.env });
    expect(untrusted.stdout).toBe('fine\n');
    expect(untrusted.stderr).toContain('.claude/settings.json: hooks ignored until you trust this folder');
    expect(untrusted.stderr).not.toContain('broken');

    await runMoat(['trust'], { cwd: sb.cwd, env: sb.env });
    server.script(reply().text('fine'));
    const trusted = await runMoat(['-p', 'go', '--verbose'], { cwd: sb.cwd, env: sb.env });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toBe('fine\n');
    expect(trusted.stderr).toContain('a UserPromptSubmit hook failed (ignored): echo broken >&2; exit 1: exit 1: broken');
  });

  test('--settings hooks and ask rules apply like a settings file\'s, without trust (they are the user\'s); --allowed-tools; hook stdout in verbose output unless suppressOutput', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'AAA\n');
    writeFileSync(join(sb.cwd, 'secret.txt'), 'TOP SECRET\n');
    const flagSettings = {
      permissions: { ask: ['Read(secret.txt)'] },
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo FLAG-HOOK-CONTEXT' }] }],
        PostToolUse: [
          {
            matcher: 'Read',
            hooks: [
              { type: 'command', command: 'echo FORMATTED-BY-HOOK' },
              { type: 'command', command: `echo '{"suppressOutput": true, "systemMessage": "QUIET-HOOK-RAN"}'` },
            ],
          },
        ],
      },
    };
    server.script(
      reply().toolUse('Read', { file_path: 'secret.txt' }).toolUse('Read', { file_path: 'a.txt' }).toolUse('Write', { file_path: 'out.txt', content: 'x\n' }).stop('tool_use'),
      reply().text('done'),
    );
    const r = await runMoat(['-p', 'go', '--verbose', '--settings', JSON.stringify(flagSettings), '--allowed-tools', 'Write', 'Read(secret.txt)'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(r.stderr).not.toContain('ignored until you trust');
    expect(requestText(0)).toContain('FLAG-HOOK-CONTEXT');
    // The ask rule beats the allow flag (-p cannot ask: denied); --allowed-tools Write lets the write through.
    expect(r.stderr.match(/Read denied:/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('Write denied');
    expect(requestText(1)).not.toContain('TOP SECRET');
    // The first PostToolUse hook's stdout is shown; the second asked for silence, only its systemMessage shows.
    expect(r.stderr).toContain('PostToolUse hook echo FORMATTED-BY-HOOK: FORMATTED-BY-HOOK');
    expect(r.stderr).toContain('QUIET-HOOK-RAN');
    expect(r.stderr).not.toContain('"suppressOutput"');
  });

  test('.claude/commands: `moat -p "/name args"` runs a custom command with its arguments', async () => {
    mkdirSync(join(sb.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'commands', 'fix-issue.md'), '---\ndescription: Fix a GitHub issue\nargument-hint: [number]\nmodel: haiku\n---\nFix issue #$1 and add a regression test ($ARGUMENTS).\n');
    server.script(reply().text('on it'));
    const r = await runMoat(['-p', '/fix-issue 42 urgent'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    // The command's `model` (an alias) is the run's model.
    expect((server.requests[0]!.body as { model: string }).model).toBe('claude-haiku-4-5');
    expect(requestText(0)).toContain('Fix issue #42 and add a regression test (42 urgent).');
    expect(JSON.stringify(server.requests[0]!.body)).toContain('fix-issue: Fix a GitHub issue');
  });

  test('SessionStart adds context, a PostToolUse `continue: false` ends the run, SessionEnd runs as moat exits', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'AAA\n');
    settings({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo "SESSION-START-CONTEXT"' }] }],
        PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"read is enough"}'` }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/ended.json"' }] }],
      },
    });
    await runMoat(['trust'], { cwd: sb.cwd, env: sb.env });
    server.script(reply().text('reading').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('never asked'));
    const r = await runMoat(['-p', 'go', '--verbose'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(requestText(0)).toContain('SESSION-START-CONTEXT');
    expect(server.requests).toHaveLength(1);
    expect(r.stderr).toContain('stopped by a hook: read is enough');
    const ended = JSON.parse(await Bun.file(join(sb.cwd, 'ended.json')).text()) as Record<string, unknown>;
    expect(ended).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other', cwd: sb.cwd });
  });

  test("a custom command's !`cmd` lines run like Bash calls (sandbox, rules) and their output goes into the prompt", async () => {
    mkdirSync(join(sb.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'commands', 'status.md'), 'Shell says: !`echo hello-from-shell`\nDenied: !`curl https://example.com`\n');
    settings({ permissions: { deny: ['Bash(curl:*)'] } });
    server.script(reply().text('ok'));
    const r = await runMoat(['-p', '/status'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(requestText(0)).toContain('Shell says: hello-from-shell');
    // The refusal a model's Bash call would get, word for word.
    expect(requestText(0)).toContain('Denied: [not run: Permission denied: running \\"curl https://example.com\\" is blocked by the deny rule \\"Bash(curl:*)\\" (from .claude/settings.json:3).');
  });
});
