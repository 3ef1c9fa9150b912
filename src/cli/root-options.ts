/**
 * The root command's options as data, and the rule that registers only those
 * a command line can use. Building one commander Option costs ~60 µs on the
 * 2-core machine (its flags split by regex, its name camel-cased, a listener
 * added), and `moat -p "task"` names two of the ~45: registering the others
 * was ~2.5 ms before the first request. A parse that fails is parsed again
 * with every option (src/cli/index.ts), so errors and their suggestions are
 * those of the whole command line.
 */
import { PERMISSION_MODES } from '../contracts/index.ts';
import { Option, type Command } from 'commander';
import { positiveInt, positiveNumber } from './option-values.ts';

export interface RootOptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string;
  /** Reads each value (a number, a repeated option's list). */
  parse?: (value: string, previous: unknown) => unknown;
  hidden?: boolean;
}

/** moat's own root options, in the order help lists them. */
export const OWN_OPTIONS: readonly RootOptionSpec[] = [
  { flags: '-p, --print', description: 'non-interactive: run the task, print the result, exit' },
  {
    flags: '--output-format <format>',
    description: 'with -p: text (default), json (one result object), stream-json (events)',
    choices: ['text', 'json', 'stream-json'],
    default: 'text',
  },
  { flags: '--model <model>', description: 'model to use: claude-sonnet-4-5, openai/gpt-5.1, gemini/gemini-2.5-pro, ollama/<name>… (moat models lists them)' },
  { flags: '--fallback-model <models>', description: 'when the model is overloaded or failing after its retries, continue on this one (comma-separated for several)' },
  { flags: '--max-turns <n>', description: 'stop after this many model turns (exit 3)', parse: positiveInt('--max-turns') },
  { flags: '--max-budget-usd <usd>', description: 'stop once the run has cost this much (exit 4)', parse: positiveNumber('--max-budget-usd') },
  {
    flags: '--permission-mode <mode>',
    description: 'default, acceptEdits, plan, bypassPermissions or dontAsk (deny what would be asked); auto (Claude Code\'s) runs as default',
    choices: [...PERMISSION_MODES, 'auto'],
  },
  { flags: '--allowedTools <rules...>', description: 'allow rules, e.g. "Bash(npm test:*)" "Edit(src/**)" Read' },
  { flags: '--disallowedTools <rules...>', description: 'deny rules (deny beats allow)' },
  { flags: '--add-dir <dirs...>', description: 'other folders the tools may use (several values, repeatable)' },
  { flags: '--mcp-config <configs...>', description: 'MCP servers from .mcp.json-style files or their JSON text (several values, repeatable)' },
  { flags: '--strict-mcp-config', description: 'use only the --mcp-config servers, none from config files' },
  { flags: '--cwd <dir>', description: 'working folder (default: the current folder)' },
  { flags: '--system-prompt <text>', description: "replace moat's built-in instructions" },
  { flags: '--append-system-prompt <text>', description: 'add to the system prompt' },
  { flags: '-c, --continue', description: 'continue the latest session in this folder' },
  { flags: '-r, --resume <id>', description: 'resume a session by id (or unique prefix)' },
  { flags: '--verbose', description: 'with -p text: show progress and tool activity on stderr' },
  { flags: '--worktree', description: 'with -p: work in a new git worktree on its own branch; prints the branch at the end' },
  { flags: '--no-color', description: 'no colours (NO_COLOR is honoured too)' },
];

/**
 * Whether a command line can use `spec`: it names one of its flags (`--x`,
 * `--x=v`, `--no-x`, or a short flag, alone or among others: `-cp`), or the
 * option gives a value without being named (a default, `--no-x`'s true). A
 * value or operand that happens to spell a flag only adds an option, and an
 * option more never changes how commander reads the others.
 */
export function usedBy(argv: readonly string[], spec: RootOptionSpec): boolean {
  if (spec.default !== undefined || spec.flags.includes('--no-')) return true;
  const longs: string[] = spec.flags.match(/--[A-Za-z0-9-]+/g) ?? [];
  const short = /(?:^|[\s,|])-([A-Za-z0-9])\b/.exec(spec.flags)?.[1];
  return argv.some((a) => {
    if (a.startsWith('--')) {
      const name = a.split('=', 1)[0] as string;
      return longs.includes(name) || longs.includes(name.replace(/^--no-/, '--'));
    }
    return short !== undefined && /^-[^-]/.test(a) && a.slice(1).includes(short);
  });
}

/** Registers `specs` on `program`, all of them or, given the command line, those it can use. */
export function addRootOptions(program: Command, specs: readonly RootOptionSpec[], argv?: readonly string[]): void {
  for (const spec of specs) {
    if (argv !== undefined && !usedBy(argv, spec)) continue;
    const option = new Option(spec.flags, spec.description);
    if (spec.choices !== undefined) option.choices(spec.choices);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.parse !== undefined) option.argParser(spec.parse);
    if (spec.hidden === true) option.hideHelp();
    program.addOption(option);
  }
}
