/**
 * Every option of the current Claude Agent SDK is accepted by dist/moat: the
 * real SDK passes its flags and initialize fields, and the run succeeds,
 * mapped to moat's nearest behaviour or reported once as having no effect.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createSdkMcpServer, query, tool, type Options, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, MOAT_BIN, type Sandbox } from '../support/run-moat.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: FakeAnthropic;
let sb: Sandbox;
let stderr: string[];

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
  stderr = [];
});
afterEach(() => {
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

async function run(over: Partial<Options>): Promise<SDKMessage[]> {
  server.script(reply().text('done'));
  const out: SDKMessage[] = [];
  const q = query({
    prompt: 'go',
    options: { pathToClaudeCodeExecutable: MOAT_BIN, cwd: sb.cwd, env: sb.env, model: 'claude-sonnet-4-5', stderr: (d) => stderr.push(d), ...over },
  });
  for await (const m of q) out.push(m);
  return out;
}

const result = (messages: SDKMessage[]) => messages.find((m) => m.type === 'result');

describe('every SDK option is accepted', () => {
  // Each option alone, as a program would set it; the line moat says about it on stderr, if any.
  const cases: [string, Partial<Options>, RegExp | undefined][] = [
    ['thinking adaptive', { thinking: { type: 'adaptive' } }, undefined],
    ['thinking adaptive with display', { thinking: { type: 'adaptive', display: 'summarized' } }, /--thinking-display has no effect/],
    ['effort', { effort: 'high' }, /--effort has no effect/],
    ['betas', { betas: ['context-1m-2025-08-07'] }, /--betas has no effect/],
    ['agent', { agent: 'reviewer', agents: { reviewer: { description: 'reviews', prompt: 'You review.' } } }, /--agent has no effect/],
    ['plugins', { plugins: [{ type: 'local', path: '/nonexistent-plugin' }] }, /--plugin-dir has no effect/],
    ['includeHookEvents', { includeHookEvents: true }, /--include-hook-events has no effect/],
    ['permissionMode auto', { permissionMode: 'auto' as Options['permissionMode'] }, /--permission-mode auto runs as default/],
    ['taskBudget', { taskBudget: { total: 50_000 } }, /--task-budget has no effect/],
    ['permissionPrompts', { permissionPrompts: 'none' }, /--permission-prompts has no effect/],
  ];
  for (const [name, over, said] of cases) {
    test(name, async () => {
      const messages = await run(over);
      expect(result(messages)).toMatchObject({ subtype: 'success', result: 'done' });
      const text = stderr.join('');
      if (said !== undefined) expect(text).toMatch(said);
      expect(text).not.toMatch(/unknown option|error:/);
    });
  }

  test('thinking disabled turns off a configured budget', async () => {
    const messages = await run({ thinking: { type: 'disabled' }, maxThinkingTokens: 4096 });
    expect(result(messages)).toMatchObject({ subtype: 'success' });
    expect((server.requests[0]!.body as { thinking?: unknown }).thinking).toBeUndefined();
  });

  test('debugFile: the debug lines go to that file', async () => {
    const file = join(sb.home, 'debug.log');
    const messages = await run({ debugFile: file });
    expect(result(messages)).toMatchObject({ subtype: 'success' });
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(0);
  });

  test("mcpServersDelivery 'initialize': the servers come in initialize and system/init lists them", async () => {
    const messages = await run({
      mcpServersDelivery: 'initialize',
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } },
    });
    expect(result(messages)).toMatchObject({ subtype: 'success' });
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ mcp_servers: [{ name: 'everything' }] });
  });
});

describe('slash commands through the SDK', () => {
  test('a prompt "/name args" expands a custom command (and its !`cmd` lines) exactly as -p does, also as /folder:name', async () => {
    const dir = join(sb.cwd, '.claude', 'commands', 'tools');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'greet.md'), '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS. Today: !`echo INLINE-OUTPUT`\n');
    for (const typed of ['/greet Ada', '/tools:greet Ada']) {
      server.requests.length = 0;
      server.script(reply().text('hi Ada'));
      const q = query({ prompt: typed, options: { pathToClaudeCodeExecutable: MOAT_BIN, cwd: sb.cwd, env: sb.env, model: 'claude-sonnet-4-5' } });
      const messages: SDKMessage[] = [];
      for await (const m of q) messages.push(m);
      expect(result(messages)).toMatchObject({ subtype: 'success', result: 'hi Ada' });
      const first = (server.requests[0]!.body as { messages: { content: { text?: string }[] }[] }).messages[0]!.content[0]!.text ?? '';
      expect(first.split('\n').slice(0, 3).join('\n')).toBe(`${typed}\n\n<skill name="greet">`);
      expect(first).toContain('Say hello to Ada. Today: INLINE-OUTPUT');
    }
  });
});

describe("a custom command's !`cmd` line that must be asked, through the SDK", () => {
  test("goes to the program's canUseTool as a Bash call; allowed, its output is in the prompt; denied, it is not run and is in permission_denials", async () => {
    mkdirSync(join(sb.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'commands', 'stamp.md'), '---\ndescription: Stamps\n---\nStamp: !`echo ASKED-OUTPUT`\n');
    for (const behavior of ['allow', 'deny'] as const) {
      server.requests.length = 0;
      server.script(reply().text('seen'));
      const asked: { tool: string; command: unknown }[] = [];
      const messages: SDKMessage[] = [];
      const q = query({
        prompt: '/stamp',
        options: {
          pathToClaudeCodeExecutable: MOAT_BIN,
          cwd: sb.cwd,
          env: sb.env,
          model: 'claude-sonnet-4-5',
          // An ask rule: the line is asked about whatever the sandbox could hold.
          extraArgs: { settings: JSON.stringify({ permissions: { ask: ['Bash(echo:*)'] } }) },
          canUseTool: async (toolName, input) => {
            asked.push({ tool: toolName, command: input['command'] });
            return behavior === 'allow' ? { behavior, updatedInput: input } : { behavior, message: 'not today' };
          },
        },
      });
      for await (const m of q) messages.push(m);
      expect(asked).toEqual([{ tool: 'Bash', command: 'echo ASKED-OUTPUT' }]);
      const sent = JSON.stringify(server.requests[0]?.body);
      const final = result(messages) as unknown as { subtype: string; permission_denials: { tool_name: string; tool_input: { command: string } }[] };
      expect(final.subtype).toBe('success');
      if (behavior === 'allow') {
        expect(sent).toContain('Stamp: ASKED-OUTPUT');
        expect(final.permission_denials).toEqual([]);
      } else {
        expect(sent).not.toContain('Stamp: ASKED-OUTPUT');
        expect(sent).toMatch(/Stamp: \[not run: The user denied this Bash call\./);
        expect(final.permission_denials.map((d) => [d.tool_name, d.tool_input.command])).toEqual([['Bash', 'echo ASKED-OUTPUT']]);
      }
    }
  }, 60_000);
});

describe('in-process SDK MCP servers', () => {
  test("createSdkMcpServer's tool is offered from the first request, its handler runs in the program, its result reaches the model", async () => {
    const calls: { a: number; b: number }[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: 'text', text: `sum=${args.a + args.b}` }] };
        }),
      ],
    });
    server.script(reply().toolUse('mcp__calc__add', { a: 2, b: 3 }).stop('tool_use'), reply().text('five'));
    const messages: SDKMessage[] = [];
    const q = query({
      prompt: 'add 2 and 3',
      options: { pathToClaudeCodeExecutable: MOAT_BIN, cwd: sb.cwd, env: sb.env, model: 'claude-sonnet-4-5', mcpServers: { calc }, allowedTools: ['mcp__calc__add'], stderr: (d) => stderr.push(d) },
    });
    for await (const m of q) messages.push(m);
    expect(result(messages)).toMatchObject({ subtype: 'success', result: 'five' });
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ mcp_servers: [{ name: 'calc', status: 'connected' }] });
    const firstTools = (server.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(firstTools).toContain('mcp__calc__add');
    const second = JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(second).toContain('sum=5');
  });
});
