/** Claude Code's list flags take several values (`--tools Bash Read`, `--add-dir d1 d2`, `--mcp-config a b`), and repeat. */
import { expect, test } from 'bun:test';
import { buildProgram } from '../../src/cli/full-program.ts';
import type { Handlers, RootOptions } from '../../src/cli/program.ts';

/** The prompt words and options the root handler gets for `argv`. */
async function parsed(argv: string[]): Promise<{ prompt: string[]; opts: RootOptions }> {
  let seen: { prompt: string[]; opts: RootOptions } | undefined;
  const handlers = new Proxy({}, {
    get: (_, key) => async (...args: unknown[]) => {
      if (key === 'root') seen = { prompt: args[0] as string[], opts: args[1] as RootOptions };
      return 0;
    },
  }) as Handlers;
  // Both ways the program is built: with the options this line names, and whole.
  for (const program of [buildProgram(handlers, () => {}, argv), buildProgram(handlers, () => {})]) await program.parseAsync(argv, { from: 'user' });
  if (seen === undefined) throw new Error('the root handler was not called');
  return seen;
}

test('several values after one flag are all taken, and the prompt stays the prompt', async () => {
  const r = await parsed(['-p', 'fix it', '--tools', 'Bash', 'Read', '--add-dir', 'd1', 'd2', '--mcp-config', 'a.json', 'b.json']);
  expect(r.prompt).toEqual(['fix it']);
  expect({ tools: r.opts.tools, addDir: r.opts.addDir, mcpConfig: r.opts.mcpConfig }).toEqual({ tools: 'Bash,Read', addDir: ['d1', 'd2'], mcpConfig: ['a.json', 'b.json'] });
});

test('repeated flags and the = form add up; a comma list stays one value for --tools', async () => {
  const r = await parsed(['--add-dir=d1', '--add-dir', 'd2', '--tools=Bash,Read', '--tools', 'Grep', '--mcp-config', 'a.json', '--mcp-config={}', '-p', 'x']);
  expect({ tools: r.opts.tools, addDir: r.opts.addDir, mcpConfig: r.opts.mcpConfig, prompt: r.prompt }).toEqual({
    tools: 'Bash,Read,Grep',
    addDir: ['d1', 'd2'],
    mcpConfig: ['a.json', '{}'],
    prompt: ['x'],
  });
});

test('--tools "" still offers no tools', async () => {
  expect((await parsed(['--tools', '', '-p', 'x'])).opts.tools).toBe('');
});
