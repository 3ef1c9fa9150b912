/**
 * End to end: the MCP Inspector's CLI mode (`mcp-inspector --cli`, the official debugging client,
 * from npm) against `dist/moat mcp serve --tools`, offline: it lists moat's tools and calls them,
 * with no API key in the environment (the caller is the model) and no model server at all.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MOAT_BIN, makeSandbox, type Sandbox } from '../support/run-moat.ts';

const INSPECTOR = resolve(import.meta.dir, '../../node_modules/.bin/mcp-inspector');

let sb: Sandbox;
beforeEach(() => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  if (!existsSync(INSPECTOR)) throw new Error(`the MCP Inspector is missing at ${INSPECTOR}: run bun install`);
  sb = makeSandbox();
  delete sb.env['ANTHROPIC_API_KEY'];
  writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
});
afterEach(() => {
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

/** One inspector run: its JSON answer on stdout. */
async function inspect(args: string[]): Promise<{ code: number; json: unknown; stderr: string }> {
  const proc = Bun.spawn([INSPECTOR, '--cli', MOAT_BIN, 'mcp', 'serve', '--tools', ...args], { cwd: sb.cwd, env: sb.env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = stdout;
  }
  return { code, json, stderr };
}

describe('the MCP Inspector CLI against moat mcp serve --tools', () => {
  test('tools/list names moat and its own tools; tools/call reads a file and is denied an edit', async () => {
    const list = await inspect(['--method', 'tools/list']);
    expect(list.code).toBe(0);
    const names = (list.json as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['moat', 'moat_reply', 'Read', 'Edit', 'Grep', 'Glob', 'Bash']));

    const read = await inspect(['--method', 'tools/call', '--tool-name', 'Read', '--tool-arg', 'file_path=a.txt']);
    expect(read.json).toEqual({ content: [{ type: 'text', text: '     1\tone' }], isError: false });

    const edit = await inspect(['--method', 'tools/call', '--tool-name', 'Edit', '--tool-arg', 'file_path=a.txt', '--tool-arg', 'old_string=one', '--tool-arg', 'new_string=two']);
    expect(edit.json).toMatchObject({ isError: true });
    expect(JSON.stringify(edit.json)).toContain('Permission denied');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('one\n');
  }, 60_000);
});
