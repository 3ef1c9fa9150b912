import { describe, expect, test } from 'bun:test';
import { buildProgram, SUBCOMMANDS, type Handlers } from '../../src/cli/program.ts';

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
});
