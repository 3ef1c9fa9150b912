/**
 * `moat` alone runs the root command without commander (src/cli/plain-command-line.ts):
 * the options it hands over must be exactly those commander parses, and every
 * other command line (flags, a prompt, subcommands, help, errors) still goes
 * through commander.
 */
import { describe, expect, test } from 'bun:test';
import { buildProgram } from '../../src/cli/full-program.ts';
import { plainRootOptions } from '../../src/cli/plain-command-line.ts';
import { buildRootProgram, type Handlers, type RootOptions } from '../../src/cli/program.ts';

/** What commander hands the root command for `argv`, through the program main() would build for it, or undefined when another handler runs. */
async function commanderRoot(argv: string[], build: (h: Handlers) => ReturnType<typeof buildRootProgram>): Promise<[string[], RootOptions] | undefined> {
  let root: [string[], RootOptions] | undefined;
  const record = new Proxy({}, {
    get: (_, key) => async (...args: unknown[]) => {
      if (key === 'root') root = [args[0] as string[], { ...(args[1] as RootOptions) }];
      return 0;
    },
  }) as Handlers;
  const program = build(record);
  program.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
  await program.parseAsync(argv, { from: 'user' });
  return root;
}

describe('plainRootOptions', () => {
  test('`moat` alone gets the options commander gives it, from the root program and from the whole program', async () => {
    const plain = plainRootOptions([]);
    expect(plain).toBeDefined();
    expect(await commanderRoot([], (h) => buildRootProgram(h, () => {}, []))).toEqual([[], { ...plain! }]);
    expect(await commanderRoot([], (h) => buildProgram(h, () => {}))).toEqual([[], { ...plain! }]);
  });

  test('every other command line is left to commander', () => {
    const others = [
      ['hello'],
      ['-p', 'hi'],
      ['-c'],
      ['--resume', 'abc'],
      ['--model', 'haiku'],
      ['--help'],
      ['-h'],
      ['--version'],
      ['sessions', 'list'],
      ['mcp'],
      ['--no-such-flag'],
      ['--'],
      [''],
      ['--input-format', 'stream-json', '--output-format', 'stream-json'],
    ];
    for (const argv of others) expect({ argv, plain: plainRootOptions(argv) }).toEqual({ argv, plain: undefined });
  });

  test('each call gives a fresh object: the root command may add to what it is given', () => {
    const a = plainRootOptions([]);
    const b = plainRootOptions([]);
    expect(a).toEqual(b!);
    expect(a).not.toBe(b);
  });
});
