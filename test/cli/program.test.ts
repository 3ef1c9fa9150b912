import { describe, expect, test } from 'bun:test';
import { CommanderError, type Command } from 'commander';
import { buildProgram } from '../../src/cli/full-program.ts';
import { SUBCOMMANDS, type Handlers } from '../../src/cli/program.ts';

const handlers = new Proxy({}, { get: () => async () => 0 }) as Handlers;

describe('buildProgram', () => {
  test('SUBCOMMANDS names every subcommand (and help)', () => {
    const program = buildProgram(handlers, () => {});
    expect([...program.commands.map((c) => c.name()), 'help'].sort()).toEqual([...SUBCOMMANDS].sort());
  });

  test('an argument list naming no subcommand gets the root command alone; one naming one, or help, gets them all', () => {
    const all = buildProgram(handlers, () => {}).commands.length;
    expect(buildProgram(handlers, () => {}, ['-p', 'fix the test', '--model', 'haiku']).commands).toHaveLength(0);
    expect(buildProgram(handlers, () => {}, ['-p', '--', 'sessions']).commands).toHaveLength(0);
    expect(buildProgram(handlers, () => {}, ['sessions', 'list']).commands).toHaveLength(all);
    expect(buildProgram(handlers, () => {}, ['--cwd', 'x', 'mcp', 'list']).commands).toHaveLength(all);
    expect(buildProgram(handlers, () => {}, ['--help']).commands).toHaveLength(all);
  });

  test('the root command parses the same either way', async () => {
    const seen: unknown[] = [];
    const record = new Proxy({}, { get: (_, key) => async (...args: unknown[]) => (seen.push([key, ...args]), 0) }) as Handlers;
    const argv = ['-p', 'fix', 'it', '--model', 'haiku', '--max-turns', '3', '--allowedTools', 'Read', 'Bash(git:*)'];
    await buildProgram(record, () => {}).parseAsync(argv, { from: 'user' });
    await buildProgram(record, () => {}, argv).parseAsync(argv, { from: 'user' });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
  });

  /** What parsing `argv` with `program` does: the handler it calls, with what, or the parse error. */
  async function outcome(program: (h: Handlers) => Command, argv: string[]): Promise<unknown> {
    const calls: unknown[] = [];
    const record = new Proxy({}, { get: (_, key) => async (...args: unknown[]) => (calls.push([key, ...args]), 0) }) as Handlers;
    const built = program(record);
    for (const c of [built, ...built.commands]) c.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
    try {
      await built.parseAsync(argv, { from: 'user' });
      return { calls };
    } catch (e) {
      if (!(e instanceof CommanderError)) throw e;
      return { error: e.code, message: e.message };
    }
  }

  /** Command lines of every shape commander reads: combined short flags, --x=v, negations, defaults, repeats, variadics, operands after --, values that spell flags, and errors. */
  const LINES: string[][] = [
    ['-p', 'hi'],
    ['hi', 'there'],
    [],
    ['-p', 'x', '--model', 'haiku', '--max-turns', '3', '--max-budget-usd', '0.5'],
    ['-cp', 'x'],
    ['-pc'],
    ['-p', '-r', 'abc', 'x'],
    ['-rabc', '-p', 'x'],
    ['--output-format=json', '-p', 'x'],
    ['--output-format', 'stream-json', '--input-format', 'stream-json', '--verbose', '--include-partial-messages', '--replay-user-messages'],
    ['--no-color', '-p', 'x'],
    ['--no-session-persistence', '-p', 'x', '--session-id', '0b6f1c2e-4c8e-4e55-9d3a-1b2c3d4e5f60'],
    ['--add-dir', 'a', '--add-dir=b', '-p', 'x'],
    ['--allowedTools', 'Read', 'Bash(git:*)', '-p', 'x'],
    ['--allowed-tools', 'Read', '--disallowed-tools', 'Bash', '-p', 'x'],
    ['--debug', '-p', 'x'],
    ['--debug', 'api', '-p', 'x'],
    ['-p', '--', '--model', 'x', '-c'],
    ['--system-prompt', '--verbose', '-p', 'x'],
    ['--append-system-prompt=-p', 'x'],
    ['-p', 'x', '--dangerously-skip-permissions', '--allow-dangerously-skip-permissions', '--permission-mode', 'plan'],
    ['--settings', '{}', '--setting-sources', 'user,project', '--agents', '{}', '--tools', 'Read', '-p', 'x'],
    ['--mcp-config', 'a.json', '--mcp-config', '{}', '--strict-mcp-config', '--cwd', '/tmp', '-p', 'x'],
    ['--fallback-model', 'a,b', '--json-schema', '{}', '--max-thinking-tokens', '2000', '--fork-session', '-c', '-p', 'x'],
    ['--permission-prompt-tool', 'stdio', '--worktree', '-p', 'x'],
    // Errors: each must be an error with the options this line names alone too, so that main() parses it again with all of them.
    ['--max-turns', '0', '-p', 'x'],
    ['--modle', 'haiku', '-p', 'x'],
    ['--permission-mode', 'yolo'],
    ['--output-format', 'xml', '-p', 'x'],
    ['-x'],
    ['-pz', 'x'],
    ['--print=1'],
    ['--model'],
    ['--no-such-thing'],
  ];

  test('the root command given only the options a command line names reads it as the whole program does, and fails where it fails', async () => {
    for (const argv of LINES) {
      const whole = await outcome((h) => buildProgram(h, () => {}), argv);
      const named = await outcome((h) => buildProgram(h, () => {}, argv), argv);
      if ('calls' in (whole as object)) expect({ argv, named }).toEqual({ argv, named: whole });
      else expect({ argv, failed: 'error' in (named as object) }).toEqual({ argv, failed: true });
    }
  });

  test('a plain -p run registers a handful of the root options, help all of them', () => {
    const all = buildProgram(handlers, () => {}).options.length;
    expect(all).toBeGreaterThan(35);
    expect(buildProgram(handlers, () => {}, ['-p', 'fix the test']).options.length).toBeLessThan(10);
    expect(buildProgram(handlers, () => {}, ['--help']).options.length).toBe(all);
  });
});
