/**
 * The whole command line: the root command with every subcommand and the full
 * help. Loaded only for a command line that names a subcommand or asks for
 * help, and to word a parse error (`moat -p` never loads it).
 */
import { Option, type Command } from 'commander';
import { registerCronCommand } from './cron-program.ts';
import { registerMcpCommand } from './mcp-program.ts';
import { buildRootProgram, needsSubcommands, type Handlers } from './program.ts';
import type { RewindOptions } from './rewind-command.ts';

/** The command line for `argv`: the root command alone when it names no subcommand and asks for no help; without `argv`, all of it. */
export function buildProgram(handlers: Handlers, setExit: (code: number) => void, argv?: readonly string[]): Command {
  const program = buildRootProgram(handlers, setExit, argv);
  if (argv !== undefined && !needsSubcommands(argv)) return program;
  program.addHelpText(
    'after',
    [
      '',
      'Session commands:',
      '  moat sessions list [--all]                 sessions in this folder (--all: every folder)',
      '  moat sessions show <id>                    print a transcript (id or unique prefix)',
      '  moat sessions export <id> --format <f>     export as json or markdown',
      '  moat sessions rm <id>                      delete a session (and its checkpoints)',
      '  moat rewind [--to N] [--code|--conversation|--both] [--dry-run]',
      '                                             a session\'s messages; files and/or conversation back to before N',
      '',
      'Skill and agent commands:',
      '  moat skill list                            skills: bundled, ~/.config/moat/skills, .moat/skills',
      '  moat skill show <name>                     a skill\'s fields and prompt',
      '  moat skill init <name>                     write a .moat/skills/<name>/SKILL.md skeleton',
      '  moat agents list                           agent definitions for sub-agents',
      '',
      'Sub-agent and worktree commands:',
      '  moat agents ps                             background sub-agents running now',
      '  moat agents stop <id>                      stop a background sub-agent',
      '  moat worktrees list                        branches left by sub-agents and -p --worktree',
      '  moat worktrees diff <id> [--stat]          a worktree\'s changes',
      '  moat worktrees merge <id>                  merge its branch into the current branch',
      '  moat worktrees rm <id> [--force]           remove the worktree and its branch',
      '',
      'WebAssembly tool commands:',
      '  moat tool list                             bundled, ~/.config/moat/tools and .moat/tools tools',
      '  moat tool validate <file.wasm>             the parsed spec, JSON Schema, imports, capabilities',
      "  moat tool exec <name|file> '<json>'        run a tool once; prints the result, fuel, memory, time",
      '  moat tool install <file.wasm> [--manifest] copy into ~/.config/moat/tools',
      '  moat tool rm <name>                        remove an installed tool',
      '  moat tool init <name> --lang rust|c        a project that builds into a tool',
      '',
      'MCP commands:',
      '  moat mcp add <name> -- <cmd> [args…]       a local server (--transport http <name> <url>: a remote one)',
      '  moat mcp list | get <name> | remove <name> servers, their status, tools and sandbox',
      '  moat mcp login | logout <name>             OAuth for a remote server',
      '  moat mcp serve [--port N]                  moat as an MCP server: a moat tool other agents call (stdio; HTTP on loopback)',
      '',
      'Scheduled jobs:',
      '  moat cron add "<cron>" "<task>" [--name N] a job: each run an unattended moat -p (--timeout, --model, --worktree…)',
      '  moat cron list | logs <name> | run <name>  next and last runs; a job\'s runs; run one now',
      '  moat cron pause | resume | rm <name>',
      '  moat cron serve | install-service          the scheduler (foreground, or a systemd user unit)',
      '',
      'Model commands:',
      '  moat models [provider]                     providers, whether they answer, their models, context and prices',
      '',
      'Sandbox commands:',
      '  moat sandbox status [--json]               whether the OS sandbox works here, and the policy commands run under',
      '',
      'Editor commands:',
      '  moat acp                                   moat as an Agent Client Protocol agent on stdin/stdout (Zed, JetBrains, Neovim)',
      '',
      'Project commands:',
      '  moat trust [--revoke]                      let this project\'s settings grant permissions and run hooks',
      '',
      'Exit codes:',
      '  0    done (also when the reader closes stdout early)',
      '  1    the run failed: a model request that kept failing (its error is the result), a hook or tool failure that ended the run',
      '  2    usage or config error: a bad flag or value, no prompt, an unknown session, a missing API key',
      '  3    --max-turns reached',
      '  4    --max-budget-usd reached',
      '  130  interrupted (Ctrl-C, SIGTERM)',
      '  (Claude Code exits 1 for 2, 3 and 4: a script that tests for non-zero works with both.)',
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

  program
    .command('rewind')
    .description("list the session's user messages, or put the code and/or the conversation back to just before one")
    .option('--session <id>', 'the session (default: the latest in this folder)')
    .option('--to <N>', 'the user message to go back to just before (as numbered in the list)')
    .option('--code', 'the files only')
    .option('--conversation', 'the conversation only (the old branch is kept as a session)')
    .option('--both', 'the files and the conversation (the default)')
    .option('--dry-run', 'print the files it would change; change nothing')
    .option('--force', 'overwrite files changed outside moat since the checkpoint')
    .option('--cwd <dir>', 'the folder whose latest session is meant (default: the current folder)')
    .action(async (opts: RewindOptions) => setExit(await handlers.rewind(opts)));

  const skill = program.command('skill').description('list, show and create skills (prompt templates run as /name)');
  skill
    .command('list')
    .description('the available skills and where each comes from')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (opts: { cwd?: string }) => setExit(await handlers.skillList(opts)));
  skill
    .command('show <name>')
    .description("print a skill's fields and prompt")
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (name: string, opts: { cwd?: string }) => setExit(await handlers.skillShow(name, opts)));
  skill
    .command('init <name>')
    .description('write a .moat/skills/<name>/SKILL.md skeleton (never overwrites)')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (name: string, opts: { cwd?: string }) => setExit(await handlers.skillInit(name, opts)));

  const agents = program.command('agents').description('agent definitions for sub-agents');
  agents
    .command('list')
    .description('the available agent definitions and where each comes from')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (opts: { cwd?: string }) => setExit(await handlers.agentsList(opts)));
  // Sub-agents and worktrees: running background agents, and the branches they leave.
  agents
    .command('ps')
    .description('background sub-agents running now, in any moat process')
    .action(async () => setExit(await handlers.agentsPs()));
  agents
    .command('stop <id>')
    .description('stop a running background sub-agent (its work is committed on its branch)')
    .action(async (id: string) => setExit(await handlers.agentsStop(id)));
  const worktrees = program.command('worktrees').description('branches left by sub-agents and -p --worktree runs: list, diff, merge, rm');
  // Not --cwd: the root command's --cwd would take it first.
  const cwdOption = ['-C, --repo <dir>', 'a folder of the repository (default: the current folder)'] as const;
  worktrees
    .command('list')
    .description("this repository's moat worktrees and their state")
    .option(...cwdOption)
    .action(async (opts: { repo?: string }) => setExit(await handlers.worktreesList(opts)));
  worktrees
    .command('diff <id>')
    .description("a worktree's changes as a patch")
    .option('--stat', 'only the diff stat')
    .option(...cwdOption)
    .action(async (id: string, opts: { repo?: string; stat?: boolean }) => setExit(await handlers.worktreesDiff(id, opts)));
  worktrees
    .command('merge <id>')
    .description("merge a worktree's branch into the current branch")
    .option(...cwdOption)
    .action(async (id: string, opts: { repo?: string }) => setExit(await handlers.worktreesMerge(id, opts)));
  worktrees
    .command('rm <id>')
    .description('remove a worktree and its branch')
    .option('--force', 'even if its work is not merged')
    .option(...cwdOption)
    .action(async (id: string, opts: { repo?: string; force?: boolean }) => setExit(await handlers.worktreesRm(id, opts)));

  const tool = program.command('tool').description('WebAssembly tools: list, validate, exec, install, rm, init');
  tool
    .command('list')
    .description('every WebAssembly tool: source, permission level, capabilities, hash')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (opts: { cwd?: string }) => setExit(await handlers.toolList(opts)));
  tool
    .command('validate <file>')
    .description('check a component without registering it: spec, JSON Schema, imports, capabilities, warnings')
    .option('--manifest <file>', 'its manifest (default: <file>.toml beside it)')
    .action(async (file: string, opts: { manifest?: string }) => setExit(await handlers.toolValidate(file, opts)));
  tool
    .command('exec <target> [json]')
    .description('run a tool (by name, or a .wasm file) once under its limits')
    .option('--manifest <file>', 'for a .wasm file: its manifest (default: <file>.toml beside it)')
    .option('--cwd <dir>', 'working folder the tool may see (default: the current folder)')
    .action(async (target: string, json: string | undefined, opts: { manifest?: string; cwd?: string }) => setExit(await handlers.toolExec(target, json, opts)));
  tool
    .command('install <file>')
    .description('copy a component (and its manifest) into ~/.config/moat/tools')
    .option('--manifest <file>', 'its manifest (default: <file>.toml beside it)')
    .action(async (file: string, opts: { manifest?: string }) => setExit(await handlers.toolInstall(file, opts)));
  tool
    .command('rm <name>')
    .description('remove a tool from ~/.config/moat/tools')
    .action(async (name: string) => setExit(await handlers.toolRm(name)));
  tool
    .command('init <name>')
    .description('create a tool project that builds into a component')
    .addOption(new Option('--lang <lang>', 'rust or c').choices(['rust', 'c']).default('rust'))
    .option('--cwd <dir>', 'where to create it (default: the current folder)')
    .action(async (name: string, opts: { lang: 'rust' | 'c'; cwd?: string }) => setExit(await handlers.toolInit(name, opts)));

  registerMcpCommand(program, handlers, setExit);
  registerCronCommand(program, handlers, setExit);

  program
    .command('models [provider]')
    .description('providers, whether each is reachable, and their models with context window, output cap and prices')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .action(async (provider: string | undefined, opts: { cwd?: string }) =>
      setExit(await handlers.modelsList({ ...opts, ...(provider === undefined ? {} : { provider }) })),
    );

  program
    .command('sandbox')
    .description('the OS sandbox around bash, hooks and MCP servers')
    .command('status')
    .description('whether the OS sandbox works here, why not, and the effective policy')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .option('--json', 'as JSON')
    .action(async (opts: { cwd?: string; json?: boolean }) => setExit(await handlers.sandboxStatus(opts)));

  program
    .command('trust')
    .description("trust this project folder: its .claude/settings.json and .moat/config.toml may grant permissions and run hooks")
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .option('--revoke', 'withdraw trust: only the restricting parts of its settings apply')
    .action(async (opts: { cwd?: string; revoke?: boolean }) => setExit(await handlers.trust(opts)));

  program
    .command('acp')
    .description('serve the Agent Client Protocol on stdin/stdout: moat inside an editor (Zed, JetBrains, Neovim)')
    .action(async () => setExit(await handlers.acp()));

  return program;
}
