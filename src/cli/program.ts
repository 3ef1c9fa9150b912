/** The command line's root command (commander): its flags and handlers' types; the subcommands are full-program.ts. */
import type { PermissionMode } from '../contracts/index.ts';
import { Command } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { COMPAT_OPTIONS } from './program-compat.ts';
import { IGNORED_FLAGS, MAPPED_FLAGS } from './sdk-flags.ts';
import { addRootOptions, OWN_OPTIONS } from './root-options.ts';
import type { McpHandlers } from './mcp-program.ts';
import type { CronHandlers } from './cron-program.ts';

export interface RootOptions {
  print?: boolean;
  outputFormat: 'text' | 'json' | 'stream-json';
  model?: string;
  /** `--fallback-model a,b`: models to move to when the model keeps failing. */
  fallbackModel?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  permissionMode?: PermissionMode | 'auto';
  allowedTools?: string[];
  disallowedTools?: string[];
  // Claude Code's flags, for scripts and the Agent SDK (see program-compat.ts).
  inputFormat: 'text' | 'stream-json';
  includePartialMessages?: boolean;
  jsonSchema?: string;
  sessionId?: string;
  forkSession?: boolean;
  sessionPersistence: boolean;
  settings?: string;
  settingSources?: string;
  agents?: string;
  tools?: string;
  maxThinkingTokens?: number;
  replayUserMessages?: boolean;
  debug?: string | boolean;
  dangerouslySkipPermissions?: boolean;
  allowDangerouslySkipPermissions?: boolean;
  permissionPromptTool?: string;
  addDir?: string[];
  cwd?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  continue?: boolean;
  resume?: string;
  verbose?: boolean;
  color: boolean;
  /** Run the session in a fresh git worktree on its own branch (sub-agents and worktrees). */
  worktree?: boolean;
  /** `--thinking` (the SDK's `thinking` option): `disabled` turns thinking off; the others keep the configured budget. */
  thinking?: 'adaptive' | 'enabled' | 'disabled';
  /** `--debug-file <file>`: debug lines go to this file. */
  debugFile?: string;
  /** `--await-initialize`: moat always waits for initialize before the first turn. */
  awaitInitialize?: boolean;
  /** `--mcp-config` (repeatable): MCP server files or JSON; `--strict-mcp-config`: only those. */
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
}

export interface Handlers extends CronHandlers, McpHandlers {
  root(prompt: string[], opts: RootOptions): Promise<number>;
  sessionsList(opts: { all?: boolean; cwd?: string }): Promise<number>;
  sessionsShow(id: string): Promise<number>;
  sessionsExport(id: string, opts: { format: 'json' | 'markdown' }): Promise<number>;
  sessionsRm(id: string): Promise<number>;
  skillList(opts: { cwd?: string }): Promise<number>;
  skillShow(name: string, opts: { cwd?: string }): Promise<number>;
  skillInit(name: string, opts: { cwd?: string }): Promise<number>;
  agentsList(opts: { cwd?: string }): Promise<number>;
  // Sub-agents and worktrees.
  agentsPs(): Promise<number>;
  agentsStop(id: string): Promise<number>;
  worktreesList(opts: { repo?: string }): Promise<number>;
  worktreesDiff(id: string, opts: { repo?: string; stat?: boolean }): Promise<number>;
  worktreesMerge(id: string, opts: { repo?: string }): Promise<number>;
  worktreesRm(id: string, opts: { repo?: string; force?: boolean }): Promise<number>;
  // WebAssembly tools.
  toolList(opts: { cwd?: string }): Promise<number>;
  toolValidate(file: string, opts: { manifest?: string }): Promise<number>;
  toolExec(target: string, json: string | undefined, opts: { manifest?: string; cwd?: string }): Promise<number>;
  toolInstall(file: string, opts: { manifest?: string }): Promise<number>;
  toolRm(name: string): Promise<number>;
  toolInit(name: string, opts: { lang: 'rust' | 'c'; cwd?: string }): Promise<number>;
  // Models across providers.
  modelsList(opts: { cwd?: string; provider?: string }): Promise<number>;
  // The OS sandbox around bash, hooks and MCP servers.
  sandboxStatus(opts: { cwd?: string; json?: boolean }): Promise<number>;
  // Project trust: a project's settings grant only once the user trusts the folder.
  trust(opts: { cwd?: string; revoke?: boolean }): Promise<number>;
  // moat inside editors: the Agent Client Protocol on stdin/stdout.
  acp(): Promise<number>;
}

/** The subcommands' names (and commander's implicit `help`): an argument list naming none runs the root command. */
export const SUBCOMMANDS: readonly string[] = ['sessions', 'skill', 'agents', 'worktrees', 'tool', 'mcp', 'cron', 'models', 'sandbox', 'trust', 'acp', 'help'];

/** Whether parsing `argv` can reach a subcommand or the full help: only then are the subcommands registered (full-program.ts). */
export function needsSubcommands(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => SUBCOMMANDS.includes(a) || a === '-h' || a === '--help');
}

/**
 * The root command. Parsing only: every action calls a handler, so the
 * handlers (the composition root) stay testable without commander. Given an
 * `argv` that names no subcommand and asks for no help, only the options it
 * names are registered (root-options.ts): `moat` and `moat -p` skip the rest.
 */
export function buildRootProgram(handlers: Handlers, setExit: (code: number) => void, argv?: readonly string[]): Command {
  const program = new Command('moat')
    // Options after a subcommand belong to it (`moat sessions list --cwd X`), not to the root.
    .enablePositionalOptions()
    .description('moat — a terminal AI coding agent with sandboxed tools')
    .version(`${pkg.version} (moat)`, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .argument('[prompt...]', 'the task; opens the interactive UI unless -p is given');
  // The root command alone (no subcommand named, no help): only the options this command line can use (root-options.ts).
  const rootOnly = argv !== undefined && !needsSubcommands(argv);
  addRootOptions(program, [...OWN_OPTIONS, ...COMPAT_OPTIONS, ...MAPPED_FLAGS, ...IGNORED_FLAGS], rootOnly ? argv : undefined);
  program
    .action(async (prompt: string[], opts: RootOptions) => setExit(await handlers.root(prompt, opts)));

  // One line per flag and per subcommand, however narrow the terminal.
  program.configureHelp({
    helpWidth: 1000,
    showGlobalOptions: false,
    optionDescription: (o) => o.description,
    subcommandTerm: (c) => `${c.name()} ${c.commands.map((s) => s.name()).join('|')}`.trim(),
  });
  return program;
}
