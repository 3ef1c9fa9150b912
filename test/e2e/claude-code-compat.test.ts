/**
 * The same Agent SDK programs a Claude Code user writes, run against dist/moat
 * through the real SDK (`@anthropic-ai/claude-agent-sdk`): each behaviour
 * asserts what moat must do, and records where it still differs from Claude
 * Code's behaviour (measured with the SDK's bundled Claude Code on the same
 * fake server). Every difference observed must be listed, with its reason,
 * in docs/claude-code-compat.md's "Differences the compat test checks"; the
 * last test prints them per behaviour and fails on one the document does not list.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { query, type Options, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { httpError, reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, MOAT_TEST_BIN, runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

/** Behaviour → the documented differences it observed (ids of the doc's table). */
const observed = new Map<string, string[]>();
function differs(behaviour: string, id: string, detail: string): void {
  observed.set(behaviour, [...(observed.get(behaviour) ?? []), `${id}: ${detail}`]);
}
function same(behaviour: string): void {
  if (!observed.has(behaviour)) observed.set(behaviour, []);
}

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

function options(over: Partial<Options> = {}): Options {
  return { pathToClaudeCodeExecutable: MOAT_BIN, cwd: sb.cwd, env: sb.env, model: 'claude-sonnet-4-5', ...over };
}

/** Every message of a query; an SDK that throws at the end (an error result) still leaves what came before. */
async function all(q: AsyncIterable<SDKMessage>): Promise<{ messages: SDKMessage[]; thrown?: string }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of q) messages.push(m);
  } catch (e) {
    return { messages, thrown: e instanceof Error ? e.message : String(e) };
  }
  return { messages };
}

function resultOf(messages: SDKMessage[]): Record<string, unknown> {
  const r = messages.find((m) => m.type === 'result');
  if (r === undefined) throw new Error(`no result among ${messages.map((m) => m.type).join(', ')}`);
  return r as unknown as Record<string, unknown>;
}

/** The system prompt of request `i`, its text blocks joined. */
function systemText(i: number): string {
  const system = (server.requests[i]?.body as { system?: string | { text: string }[] }).system ?? '';
  return typeof system === 'string' ? system : system.map((s) => s.text).join('\n');
}

describe('Claude Code programs on moat', () => {
  test("settingSources: [] keeps the project's CLAUDE.md, AGENTS.md, skills, commands and agents out; systemPrompt is that text plus the environment", async () => {
    const b = 'settingSources: [] with systemPrompt';
    writeFileSync(join(sb.cwd, 'CLAUDE.md'), 'CLAUDE-MD-MARKER\n');
    writeFileSync(join(sb.cwd, 'AGENTS.md'), 'AGENTS-MD-MARKER\n');
    mkdirSync(join(sb.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'commands', 'repocmd.md'), '---\ndescription: a repository command\n---\nREPO-COMMAND-BODY\n');
    mkdirSync(join(sb.cwd, '.claude', 'skills', 'reposkill'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'skills', 'reposkill', 'SKILL.md'), '---\nname: reposkill\ndescription: REPO-SKILL-MARKER\n---\nbody\n');
    mkdirSync(join(sb.cwd, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'agents', 'repoagent.md'), '---\nname: repoagent\ndescription: REPO-AGENT-MARKER\n---\nprompt\n');
    server.script(reply().text('ok'));
    const { messages } = await all(query({ prompt: 'hi', options: options({ settingSources: [], systemPrompt: 'You are PROBE.' }) }));
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as unknown as { slash_commands: string[]; agents?: string[] };
    expect(init.slash_commands).not.toContain('repocmd');
    expect(init.slash_commands).not.toContain('reposkill');
    expect(init.agents ?? []).not.toContain('repoagent');
    const request = JSON.stringify(server.requests[0]?.body);
    for (const marker of ['CLAUDE-MD-MARKER', 'AGENTS-MD-MARKER', 'REPO-SKILL-MARKER', 'REPO-AGENT-MARKER']) expect(request).not.toContain(marker);
    const system = systemText(0);
    expect(system.startsWith('You are PROBE.')).toBe(true);
    expect(system).toContain('# Environment');
    expect(system).not.toContain('# Skills');
    // Claude Code sends its SDK line, then the text, and gives the environment in the first user message.
    differs(b, 'system-prompt-layout', 'the environment is a section of the system prompt, not a system-reminder in the first user message');

    // The default sources still read the project's files (as Claude Code does).
    server.requests.length = 0;
    server.script(reply().text('ok'));
    await all(query({ prompt: 'hi', options: options({ systemPrompt: 'You are PROBE.' }) }));
    expect(JSON.stringify(server.requests[0]?.body)).toContain('CLAUDE-MD-MARKER');
  });

  test('PostToolUse callbacks get the structured tool_response; a failed call sends PostToolUseFailure', async () => {
    const b = 'PostToolUse / PostToolUseFailure callbacks';
    writeFileSync(join(sb.cwd, 'a.txt'), 'hello\n');
    server.script(
      reply().toolUse('Read', { file_path: join(sb.cwd, 'a.txt') }).stop('tool_use'),
      reply().toolUse('Bash', { command: 'echo out; echo err >&2' }).stop('tool_use'),
      reply().toolUse('Read', { file_path: join(sb.cwd, 'missing.txt') }).stop('tool_use'),
      reply().text('done'),
    );
    const inputs: Record<string, unknown>[] = [];
    const record = async (input: unknown) => {
      inputs.push(input as Record<string, unknown>);
      return {};
    };
    const { messages } = await all(query({ prompt: 'go', options: options({ hooks: { PostToolUse: [{ hooks: [record] }], PostToolUseFailure: [{ hooks: [record] }] } }) }));
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
    expect(inputs.map((i) => `${String(i['hook_event_name'])} ${String(i['tool_name'])}`)).toEqual(['PostToolUse Read', 'PostToolUse Bash', 'PostToolUseFailure Read']);
    type Seen = { tool_response: { file: { content: string }; stdout: string } } & Record<string, unknown>;
    const [read, bash, failed] = inputs as [Seen, Seen, Seen];
    expect(read['tool_response']).toMatchObject({ type: 'text', file: { filePath: join(sb.cwd, 'a.txt'), numLines: 1, startLine: 1 } });
    expect(bash['tool_response']).toMatchObject({ stderr: '', interrupted: false, isImage: false });
    expect(bash['tool_response'].stdout).toContain('out');
    expect(failed).toMatchObject({ tool_use_id: expect.any(String), is_interrupt: false, error: expect.stringContaining('missing.txt') });
    for (const i of inputs) expect(typeof i['duration_ms']).toBe('number');
    // The same object stream-json's tool_use_result carries.
    const results = messages.flatMap((m) => (m.type === 'user' && 'tool_use_result' in m ? [m.tool_use_result] : []));
    expect(results[0]).toEqual(read['tool_response']);
    if (read['tool_response'].file.content !== 'hello\n') differs(b, 'read-content-numbered', `file.content is ${JSON.stringify(read['tool_response'].file.content)}, Claude Code's is the raw "hello\\n"`);
    // Claude Code 2.1.330 also gives both streams in stdout, in order, without the final newline.
    if (bash['tool_response'].stdout !== 'out\nerr') differs(b, 'bash-streams-merged', `stdout is ${JSON.stringify(bash['tool_response'].stdout)}; Claude Code's "out\\nerr"`);
    if (!String(failed['error']).startsWith('File does not exist.')) differs(b, 'tool-error-wording', "the failure's error is moat's tool wording");
  });

  test('a command hook from the settings gets the same structured tool_response', async () => {
    const b = 'PostToolUse command hook';
    server.script(reply().toolUse('Bash', { command: 'echo hooked' }).stop('tool_use'), reply().text('done'));
    const log = join(sb.cwd, 'hook-input.json');
    const settings = JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${log}` }] }] } });
    const { messages } = await all(query({ prompt: 'go', options: options({ extraArgs: { settings } }) }));
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
    const input = JSON.parse(readFileSync(log, 'utf8')) as { tool_response: Record<string, unknown> };
    expect(input.tool_response).toMatchObject({ stdout: 'hooked\n', stderr: '', interrupted: false });
    if ('exitCode' in input.tool_response) differs(b, 'bash-result-exit-code', 'the Bash result also carries exitCode');
    same(b);
  });

  test('the API keeps failing: result is the error, api_error_status the status; api_retry names the status and the retries', async () => {
    const b = 'API failure (529 forever)';
    for (let i = 0; i < 5; i++) server.script(httpError(529));
    // The test build: its retries wait MOAT_TEST_RETRY_BASE_MS, not the real back-off.
    const { messages } = await all(query({ prompt: 'hi', options: options({ pathToClaudeCodeExecutable: MOAT_TEST_BIN }) }));
    const retries = messages.filter((m) => m.type === 'system' && m.subtype === 'api_retry') as unknown as Record<string, unknown>[];
    expect(retries.length).toBe(4);
    for (const r of retries) expect(r).toMatchObject({ error_status: 529, max_retries: 4, error: 'overloaded' });
    const r = resultOf(messages);
    expect(r).toMatchObject({ is_error: true, api_error_status: 529 });
    expect(String(r['result'])).toContain('529');
    if (r['subtype'] !== 'success') differs(b, 'api-error-subtype', `subtype is ${String(r['subtype'])}; Claude Code reports "success" with is_error`);
    differs(b, 'retry-budget', 'moat retries 4 times (then falls back or fails); Claude Code 10 times over minutes');

    // Text mode: the error is on stdout, as in Claude Code, and the exit code 1.
    server.requests.length = 0;
    for (let i = 0; i < 5; i++) server.script(httpError(529));
    const text = await runMoat(['-p', 'hi'], { cwd: sb.cwd, env: sb.env, bin: MOAT_TEST_BIN });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('529');
    expect(text.stderr).toBe('');
    if (!text.stdout.startsWith('API Error:')) differs(b, 'api-error-wording', `stdout says ${JSON.stringify(text.stdout.trim())}`);

    // A request that never reached a server (nothing listens on port 9): on stdout too, as Claude Code prints "API Error: Connection refused …".
    const refused = await runMoat(['-p', 'hi'], { cwd: sb.cwd, env: { ...sb.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }, bin: MOAT_TEST_BIN });
    expect(refused.code).toBe(1);
    expect(refused.stdout.trim()).not.toBe('');
    expect(refused.stderr).toBe('');
  });

  test('model_fallback carries trigger, original_model and fallback_model', async () => {
    const b = 'fallback model';
    for (let i = 0; i < 5; i++) server.script(httpError(529));
    server.script(reply().text('from the fallback'));
    const { messages } = await all(query({ prompt: 'hi', options: options({ fallbackModel: 'claude-haiku-4-5' }) }));
    const fallback = messages.find((m) => m.type === 'system' && (m.subtype as string) === 'model_fallback') as unknown as Record<string, unknown>;
    expect(fallback).toMatchObject({ trigger: 'overloaded', original_model: 'claude-sonnet-4-5', fallback_model: 'claude-haiku-4-5', content: expect.any(String) });
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'from the fallback' });
    differs(b, 'retry-budget', 'the switch comes after 4 retries; Claude Code switches after 2-3');
  });

  test('"always" for an edit offers acceptEdits for the session: the next file is not asked', async () => {
    const b = 'canUseTool "always" for an edit';
    server.script(
      reply().toolUse('Write', { file_path: join(sb.cwd, 'one.txt'), content: '1' }).stop('tool_use'),
      reply().toolUse('Write', { file_path: join(sb.cwd, 'two.txt'), content: '2' }).stop('tool_use'),
      reply().text('done'),
    );
    const asked: unknown[] = [];
    const { messages } = await all(
      query({
        prompt: 'write two files',
        options: options({
          canUseTool: async (name, input, o) => {
            asked.push({ name, suggestions: o.suggestions });
            return { behavior: 'allow', updatedInput: input, updatedPermissions: o.suggestions ?? [] };
          },
        }),
      }),
    );
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
    expect(asked).toEqual([{ name: 'Write', suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }]);
    expect(readFileSync(join(sb.cwd, 'two.txt'), 'utf8')).toBe('2');
    same(b);
  });

  test('a single turn that overspends maxBudgetUsd ends error_max_budget_usd', async () => {
    const b = 'maxBudgetUsd, one turn';
    server.script(reply().text('expensive').usage({ input: 1_000_000, output: 0 }));
    const { messages } = await all(query({ prompt: 'hi', options: options({ maxBudgetUsd: 0.01 }) }));
    expect(resultOf(messages)).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    same(b);
  });

  test('read-only Bash runs in the sandbox without a question; an ask rule for Bash asks for every command', async () => {
    const b = 'canUseTool and Bash';
    // A command Claude Code asks about (it knows `ls` is read-only, not what `bash -c` runs).
    server.script(reply().toolUse('Bash', { command: "bash -c 'echo hi'" }).stop('tool_use'), reply().text('said'));
    const asked: string[] = [];
    const canUseTool: Options['canUseTool'] = async (name, input) => {
      asked.push(`${name} ${String(input['command'])}`);
      return { behavior: 'allow', updatedInput: input };
    };
    await all(query({ prompt: 'say hi', options: options({ canUseTool }) }));
    if (asked.length === 0) differs(b, 'bash-readonly-sandbox', 'a command Claude Code asks about ran in the read-only sandbox without reaching canUseTool');

    // The setting for programs that audit every command: Claude Code's own ask rule.
    server.script(reply().toolUse('Bash', { command: 'ls' }).stop('tool_use'), reply().text('listed'));
    asked.length = 0;
    const { messages } = await all(query({ prompt: 'list', options: options({ canUseTool, extraArgs: { settings: JSON.stringify({ permissions: { ask: ['Bash'] } }) } }) }));
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
    expect(asked).toEqual(['Bash ls']);
  });

  test('-p: a write the read-only sandbox refused is listed in permission_denials', async () => {
    const b = 'Bash write in -p, default mode';
    server.script(reply().toolUse('Bash', { command: 'touch notes.txt' }).stop('tool_use'), reply().text('could not'));
    const r = await runMoat(['-p', 'make a file', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    const result = JSON.parse(r.stdout) as { permission_denials: { tool_name: string; tool_input: { command: string } }[] };
    expect(existsSync(join(sb.cwd, 'notes.txt'))).toBe(false);
    expect(result.permission_denials).toMatchObject([{ tool_name: 'Bash', tool_input: { command: 'touch notes.txt' } }]);
    // Claude Code denies before running; moat ran it read-only and the sandbox refused the write.
    differs(b, 'bash-readonly-sandbox', 'the command ran in the read-only sandbox (the write refused) instead of being denied before it ran');
  });

  test("a folder Claude Code trusts (~/.claude.json) applies its .claude/settings.local.json", async () => {
    const b = "Claude Code's trust record";
    mkdirSync(join(sb.cwd, '.claude'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Write'] } }));
    const write = () => reply().toolUse('Write', { file_path: join(sb.cwd, 'out.txt'), content: 'x' }).stop('tool_use');
    server.script(write(), reply().text('done'));
    const untrusted = await runMoat(['-p', 'write'], { cwd: sb.cwd, env: sb.env });
    expect(untrusted.stderr).toContain('ignored until you trust this folder');
    expect(existsSync(join(sb.cwd, 'out.txt'))).toBe(false);
    writeFileSync(join(sb.home, '.claude.json'), JSON.stringify({ projects: { [sb.cwd]: { hasTrustDialogAccepted: true } } }));
    server.script(write(), reply().text('done'));
    const trusted = await runMoat(['-p', 'write'], { cwd: sb.cwd, env: sb.env });
    expect(trusted.stderr).not.toContain('ignored until you trust');
    expect(readFileSync(join(sb.cwd, 'out.txt'), 'utf8')).toBe('x');
    differs(b, 'project-settings-need-trust', 'an untrusted folder\'s settings.local.json allow rules, env and hooks wait for trust; Claude Code applies them in -p');
  });

  test(".mcp.json servers Claude Code's dialog approved in .claude/settings.local.json start once the folder is trusted", async () => {
    const b = '.mcp.json approvals in settings.local.json';
    const marker = join(dirname(sb.cwd), 'started');
    writeFileSync(join(sb.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'sh', args: ['-c', `echo yes > ${marker}; exec sleep 30`] } } }));
    mkdirSync(join(sb.cwd, '.claude'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['repo'] }));
    // A sandboxed server writes only its own temp folder: the user's config lets this one leave its mark (it approves nothing).
    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), `[mcp_servers.repo.sandbox]\nallow_write = [${JSON.stringify(dirname(sb.cwd))}]\n`);
    server.script(reply().wait(1000).text('Hi.'));
    const untrusted = await runMoat(['-p', 'hello'], { cwd: sb.cwd, env: sb.env });
    expect(untrusted.stderr).toContain('MCP server repo (.mcp.json) not started');
    expect(existsSync(marker)).toBe(false);
    writeFileSync(join(sb.home, '.claude.json'), JSON.stringify({ projects: { [sb.cwd]: { hasTrustDialogAccepted: true } } }));
    server.script(reply().wait(1000).text('Hi again.'));
    const trusted = await runMoat(['-p', 'hello'], { cwd: sb.cwd, env: sb.env });
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain('not started');
    expect(existsSync(marker)).toBe(true);
    differs(b, 'project-settings-need-trust', 'the approval counts only in a trusted folder; Claude Code reads it in any folder');
  }, 30_000);

  test('moat --help lists the exit codes', async () => {
    const help = await runMoat(['--help'], { cwd: sb.cwd, env: sb.env });
    for (const line of ['Exit codes:', '3    --max-turns reached', '4    --max-budget-usd reached', '130  interrupted']) expect(help.stdout).toContain(line);
    differs('exit codes', 'exit-codes', 'usage errors exit 2, --max-turns 3, --max-budget-usd 4; Claude Code exits 1 for each');
  });

  test('every difference observed is listed in docs/claude-code-compat.md', () => {
    const doc = readFileSync(resolve(import.meta.dir, '../../docs/claude-code-compat.md'), 'utf8');
    const section = doc.split('## Differences the compat test checks')[1]?.split('\n## ')[0] ?? '';
    const listed = new Set([...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]));
    expect(listed.size).toBeGreaterThan(0);
    const unlisted: string[] = [];
    const lines: string[] = [];
    for (const [behaviour, diffs] of observed) {
      lines.push(`${behaviour}: ${diffs.length === 0 ? 'as Claude Code' : ''}`);
      for (const d of diffs) {
        const id = d.split(':')[0]!;
        lines.push(`  - ${d}${listed.has(id) ? '' : '   <-- NOT IN docs/claude-code-compat.md'}`);
        if (!listed.has(id)) unlisted.push(id);
      }
    }
    process.stdout.write(`\nWhere moat differs from Claude Code (docs/claude-code-compat.md):\n${lines.join('\n')}\n`);
    expect(unlisted).toEqual([]);
  });
});
