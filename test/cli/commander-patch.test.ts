/**
 * The build's change to commander (scripts/commander-patch.ts): it applies to
 * the installed version, the patched modules still parse and strip escape
 * sequences as node:util does, and a program built on them parses, fails,
 * fires its events and prints its help as on the original.
 */
import { expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { Command, Option } from 'commander';
import { patchCommander } from '../../scripts/commander-patch.ts';
import { tempDir } from '../support/temp.ts';

const installed = join(import.meta.dir, '../../node_modules/commander');
const lib = (file: string) => readFileSync(join(installed, 'lib', file), 'utf8');

test('the patch applies to the installed commander and leaves no node:util, node:child_process, node:events or node:process import', () => {
  for (const file of ['command.js', 'help.js'] as const) {
    const patched = patchCommander(lib(file), file);
    const imports = new Bun.Transpiler({ loader: 'js' }).scanImports(patched).map((i) => i.path);
    expect(imports).not.toContain('node:util');
    expect(imports).not.toContain('node:child_process');
    expect(imports).not.toContain('node:events');
    expect(imports).not.toContain('node:process');
  }
  expect(() => patchCommander(lib('help.js').replace("from 'node:util'", "from 'util'"), 'help.js')).toThrow(/commander changed/);
  expect(() => patchCommander(lib('option.js').replace('ID_Continue', 'L'), 'option.js')).toThrow(/commander changed/);
});

test("the patched Option calls the same flags variadic as the original's \\p{ID_Continue} check", async () => {
  const copy = join(tempDir('moat-commander-'), 'commander');
  cpSync(installed, copy, { recursive: true });
  writeFileSync(join(copy, 'lib', 'option.js'), patchCommander(lib('option.js'), 'option.js'));
  const patched = (await import(join(copy, 'lib', 'option.js'))) as { Option: typeof Option };
  const flags = ['--add-dir <dirs...>', '--tools [names...]', '-x, --xs <x...>', '--n <名前...>', '--e <é...>', '--dots <...>', '--sp <a ...>', '--model <model>', '-p, --print', '--list <a,...>', '--odd <x...', '--no-color'];
  for (const f of flags) expect([f, new patched.Option(f).variadic]).toEqual([f, new Option(f).variadic]);
  expect(flags.filter((f) => new patched.Option(f).variadic)).toEqual(['--add-dir <dirs...>', '--tools [names...]', '-x, --xs <x...>', '--n <名前...>', '--e <é...>']);
});

test('Bun.stripANSI strips what node:util strips, on the escapes a help text or a terminal may hold', () => {
  const samples = [
    'plain',
    '\u001b[31mred\u001b[39m and \u001b[1;4mbold underlined\u001b[0m',
    '\u001b[38;5;208m256\u001b[0m \u001b[38;2;1;2;3mtruecolor\u001b[0m',
    '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007',
    '\u001b]8;;https://example.com\u001b\\link\u001b]8;;\u001b\\',
    '\u001b[2K\u001b[1G\u001b[?25l\u001b[?25h cursor',
    '\u009b31mC1 CSI\u009b0m',
    'wide 漢字 and emoji 🙂 with \u001b[32mcolour\u001b[0m',
    '--model <model>  model to use: claude-sonnet-4-5, openai/gpt-5.1 …',
  ];
  for (const s of samples) expect(Bun.stripANSI(s)).toBe(stripVTControlCharacters(s));
});

test('a program on the patched commander parses and prints the same help as on the original', async () => {
  const copy = join(tempDir('moat-commander-'), 'commander');
  cpSync(installed, copy, { recursive: true });
  for (const file of ['command.js', 'help.js', 'option.js'] as const) writeFileSync(join(copy, 'lib', file), patchCommander(lib(file), file));
  const patched = (await import(join(copy, 'index.js'))) as { Command: typeof Command };
  const build = (C: typeof Command) => {
    const p = new C('moat').description('\u001b[1mmoat\u001b[0m — a \u001b[32mtest\u001b[0m').option('-p, --print', 'non-interactive').option('--model <m>', 'the \u001b[33mmodel\u001b[0m');
    p.command('sessions').description('saved sessions');
    p.action(() => {});
    p.exitOverride();
    return p;
  };
  expect(build(patched.Command).helpInformation()).toBe(build(Command).helpInformation());
  const parsed = build(patched.Command).parse(['-p', '--model', 'x'], { from: 'user' });
  expect(parsed.opts()).toEqual({ print: true, model: 'x' });
});

test("Command's events on the patched commander: option values, listeners of a program's own, help text, unknown commands, version, as on the original", async () => {
  const copy = join(tempDir('moat-commander-'), 'commander');
  cpSync(installed, copy, { recursive: true });
  for (const file of ['command.js', 'help.js', 'option.js'] as const) writeFileSync(join(copy, 'lib', file), patchCommander(lib(file), file));
  const patched = (await import(join(copy, 'index.js'))) as { Command: typeof Command; Option: typeof Option };
  /** Everything a run did: the action's arguments, the listeners called, what was written, the error. */
  const run = (C: typeof Command, O: typeof Option, argv: string[]) => {
    const seen: unknown[] = [];
    const p = new C('moat').version('1.2.3', '-v, --version').argument('[prompt...]');
    // Before the subcommand, which takes its output settings from the program when it is made.
    p.exitOverride().configureOutput({ writeOut: (s) => void seen.push(['out', s]), writeErr: (s) => void seen.push(['err', s]) });
    p.option('-p, --print').option('--model <m>').option('--add-dir <d>', 'repeatable', (v: string, prev: string[] = []) => [...prev, v]);
    p.option('--allowedTools <rules...>').option('--no-color').addOption(new O('--format <f>').choices(['text', 'json']).default('text'));
    p.option('--verbose');
    p.on('option:verbose', function (this: unknown, ...args: unknown[]) {
      // commander's own listener, added first, has set the value by now.
      seen.push(['verbose listener', this === p, args, p.getOptionValue('verbose')]);
    });
    p.addHelpText('before', 'BEFORE').addHelpText('after', 'AFTER').addHelpText('after', 'AFTER TOO');
    p.action((prompt: string[], opts: unknown) => void seen.push(['root', prompt, opts]));
    p.command('sessions').argument('[id]').option('--all').action((id: unknown, opts: unknown) => void seen.push(['sessions', id, opts]));
    for (const c of p.commands) c.exitOverride();
    try {
      p.parse(argv, { from: 'user' });
    } catch (e) {
      seen.push(['error', (e as { code?: string }).code, (e as Error).message]);
    }
    return seen;
  };
  const lines = [
    ['-p', 'fix', 'it', '--model', 'x', '--add-dir', 'a', '--add-dir', 'b', '--allowedTools', 'Read', 'Bash', '--no-color', '--format', 'json', '--verbose'],
    ['sessions', '42', '--all'],
    ['--help'],
    ['sessions', '--help'],
    ['-v'],
    ['--format', 'xml'],
    ['--modle', 'x'],
    ['--verbose', '--verbose'],
  ];
  for (const argv of lines) expect({ argv, seen: run(patched.Command, patched.Option, argv) }).toEqual({ argv, seen: run(Command, Option, argv) });
});
