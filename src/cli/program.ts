import { Command, InvalidArgumentError, Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };

export interface RootOptions {
  print?: boolean;
  outputFormat: 'text' | 'json' | 'stream-json';
  model?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  permissionMode?: 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';
  allowedTools?: string[];
  disallowedTools?: string[];
  addDir?: string[];
  cwd?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  continue?: boolean;
  resume?: string;
  verbose?: boolean;
  color: boolean;
}

function positiveInt(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive whole number, got "${v}"`);
    return n;
  };
}

function positiveNumber(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export interface Handlers {
  root(prompt: string[], opts: RootOptions): Promise<number>;
  sessionsList(opts: { all?: boolean; cwd?: string }): Promise<number>;
  sessionsShow(id: string): Promise<number>;
  sessionsExport(id: string, opts: { format: 'json' | 'markdown' }): Promise<number>;
  sessionsRm(id: string): Promise<number>;
}

/**
 * The command line. Parsing only: every action calls a handler, so the
 * handlers (the composition root) stay testable without commander.
 */
export function buildProgram(handlers: Handlers, setExit: (code: number) => void): Command {
  const program = new Command('moat')
    .description('moat — a terminal AI coding agent with sandboxed tools')
    .version(`${pkg.version} (moat)`, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .argument('[prompt...]', 'the task; opens the interactive UI unless -p is given')
    .option('-p, --print', 'non-interactive: run the task, print the result, exit')
    .addOption(
      new Option('--output-format <format>', 'with -p: text (default), json (one result object), stream-json (events)')
        .choices(['text', 'json', 'stream-json'])
        .default('text')
        .hideHelp(false),
    )
    .option('--model <model>', 'model to use (e.g. claude-sonnet-4-5)')
    .option('--max-turns <n>', 'stop after this many model turns (exit 3)', positiveInt('--max-turns'))
    .option('--max-budget-usd <usd>', 'stop once the run has cost this much (exit 4)', positiveNumber('--max-budget-usd'))
    .addOption(
      new Option('--permission-mode <mode>', 'default, acceptEdits, plan or bypassPermissions').choices([
        'default',
        'acceptEdits',
        'plan',
        'bypassPermissions',
      ]),
    )
    .option('--allowedTools <rules...>', 'allow rules, e.g. "Bash(npm test:*)" "Edit(src/**)" Read')
    .option('--disallowedTools <rules...>', 'deny rules (deny beats allow)')
    .option('--add-dir <dir>', 'another folder the tools may use (repeatable)', collect)
    .option('--cwd <dir>', 'working folder (default: the current folder)')
    .option('--system-prompt <text>', "replace moat's built-in instructions")
    .option('--append-system-prompt <text>', 'add to the system prompt')
    .option('-c, --continue', 'continue the latest session in this folder')
    .option('-r, --resume <id>', 'resume a session by id (or unique prefix)')
    .option('--verbose', 'with -p text: show progress and tool activity on stderr')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)')
    .action(async (prompt: string[], opts: RootOptions) => setExit(await handlers.root(prompt, opts)));

  // One line per flag and per subcommand, however narrow the terminal.
  program.configureHelp({
    helpWidth: 1000,
    showGlobalOptions: false,
    optionDescription: (o) => o.description,
    subcommandTerm: (c) => `${c.name()} ${c.commands.map((s) => s.name()).join('|')}`.trim(),
  });
  program.addHelpText(
    'after',
    [
      '',
      'Session commands:',
      '  moat sessions list [--all]                 sessions in this folder (--all: every folder)',
      '  moat sessions show <id>                    print a transcript (id or unique prefix)',
      '  moat sessions export <id> --format <f>     export as json or markdown',
      '  moat sessions rm <id>                      delete a session',
      '',
      'Exit codes: 0 ok, 1 error, 2 usage/config error, 3 --max-turns reached, 4 budget reached, 130 interrupted.',
    ].join('\n'),
  );

  const sessions = program.command('sessions').description('list, show, export and remove saved sessions');
  sessions
    .command('list')
    .description('sessions in this folder (newest first)')
    .option('--all', 'sessions from every folder')
    .option('--cwd <dir>', 'folder to list (default: the current folder)')
    .action(async (opts: { all?: boolean; cwd?: string }) => setExit(await handlers.sessionsList(opts)));
  sessions
    .command('show <id>')
    .description('print a session transcript')
    .action(async (id: string) => setExit(await handlers.sessionsShow(id)));
  sessions
    .command('export <id>')
    .description('export a session as json or markdown')
    .addOption(new Option('--format <format>', 'json | markdown').choices(['json', 'markdown']).default('json'))
    .action(async (id: string, opts: { format: 'json' | 'markdown' }) => setExit(await handlers.sessionsExport(id, opts)));
  sessions
    .command('rm <id>')
    .description('delete a session')
    .action(async (id: string) => setExit(await handlers.sessionsRm(id)));

  return program;
}
