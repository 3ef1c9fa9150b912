/**
 * End to end: `dist/moat mcp serve --tools` offers moat's own tools beside `moat`, as `claude mcp
 * serve` offers Claude Code's, and the MCP SDK's client calls them. Each call takes the path a
 * model's call takes: under the server's mode and rules (what would be asked is denied, never
 * silently allowed) and in the OS sandbox; no model is asked.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;
const open: { close(): Promise<void> }[] = [];

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
  writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

async function toolsClient(flags: string[] = []): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: MOAT_BIN, args: ['mcp', 'serve', '--tools', ...flags], cwd: sb.cwd, env: sb.env, stderr: 'pipe' }));
  open.push(client);
  return client;
}

interface Result {
  content: { type: string; text: string }[];
  isError?: boolean;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  return { text: r.content.map((c) => c.text).join('\n'), isError: r.isError === true };
};

describe('moat mcp serve --tools', () => {
  test('lists the tools with their input schemas; Read and Grep answer; in the default mode an edit is denied and a write in Bash is refused by the sandbox', async () => {
    const client = await toolsClient();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['moat', 'moat_reply', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash']) expect(names).toContain(name);
    expect(names).not.toContain('task');
    expect(tools.find((t) => t.name === 'Read')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'Edit')?.inputSchema.required).toEqual(expect.arrayContaining(['file_path', 'old_string', 'new_string']));

    expect(await call(client, 'Read', { file_path: 'a.txt' })).toEqual({ text: '     1\tone', isError: false });
    expect((await call(client, 'Grep', { pattern: 'on' })).text).toContain('a.txt');
    const edit = await call(client, 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain('Permission denied');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('one\n');
    const bash = await call(client, 'Bash', { command: 'cat a.txt; touch b.txt' });
    expect(bash.text).toContain('one');
    expect(bash.text).toContain('Refused by the sandbox');
    expect(existsSync(join(sb.cwd, 'b.txt'))).toBe(false);
    // Invalid input is the tool's error, as for a model's call.
    expect((await call(client, 'Read', { file_path: 'a.txt', offset: 'x' })).isError).toBe(true);
    // The caller is the model: no request went to a model server.
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  test('--permission-mode acceptEdits lets an edit land; a --disallowed-tools rule still denies', async () => {
    const client = await toolsClient(['--permission-mode', 'acceptEdits', '--disallowed-tools', 'Bash(touch *)']);
    expect((await call(client, 'Read', { file_path: 'a.txt' })).isError).toBe(false);
    const edit = await call(client, 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    expect(edit).toMatchObject({ isError: false });
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    const denied = await call(client, 'Bash', { command: 'touch c.txt' });
    expect(denied.isError).toBe(true);
    expect(existsSync(join(sb.cwd, 'c.txt'))).toBe(false);
    expect((await call(client, 'Bash', { command: 'echo fine' })).text).toContain('fine');
  }, 30_000);

  test('bad flags are one-line usage errors', async () => {
    const mode = await runMoat(['mcp', 'serve', '--tools', '--permission-mode', 'yolo'], { cwd: sb.cwd, env: sb.env });
    expect(mode.code).toBe(2);
    expect(mode.stderr.trim().split('\n')).toHaveLength(1);
    expect(mode.stderr).toContain('--permission-mode yolo');
    const without = await runMoat(['mcp', 'serve', '--allowed-tools', 'Edit'], { cwd: sb.cwd, env: sb.env });
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('apply to --tools');
  }, 30_000);
});
