/** The command line through commander: the root command's options or every subcommand, each command's module loaded when it runs. */
import { CommanderError, type Command } from 'commander';
import { EXIT } from './exit-codes.ts';
import { buildProgram } from './full-program.ts';
import { buildRootProgram, needsSubcommands, type Handlers } from './program.ts';
import { err } from './write-out.ts';

/**
 * Handlers whose module is imported when one of them runs: each command
 * evaluates only its own code (`moat -p` never evaluates the MCP, cron or
 * tool commands, and they never evaluate the agent loop). The 15 subcommand
 * modules imported statically: -p's first byte +55-62 ms CPU, +15 MB peak RSS
 * (scripts/bench/startup.ts, 2 runs of 15, load 5-7).
 */
function lazy<K extends keyof Handlers>(load: () => Promise<Pick<Handlers, K>>, keys: readonly K[]): Pick<Handlers, K> {
  const handlers: Partial<Record<K, (...args: unknown[]) => Promise<number>>> = {};
  for (const key of keys) {
    handlers[key] = async (...args: unknown[]) => {
      const module = await load();
      return (module[key] as (...a: unknown[]) => Promise<number>)(...args);
    };
  }
  return handlers as Pick<Handlers, K>;
}

const handlers: Handlers = {
  ...lazy(async () => ({ root: (await import('./root-command.ts')).rootCommand }), ['root']),
  ...lazy(async () => (await import('./sessions-command.ts')).sessionsCommands, ['sessionsList', 'sessionsShow', 'sessionsExport', 'sessionsRm']),
  ...lazy(async () => ({ rewind: (await import('./rewind-command.ts')).rewindCommand }), ['rewind']),
  ...lazy(async () => (await import('./skill-command.ts')).skillCommands, ['skillList', 'skillShow', 'skillInit']),
  ...lazy(async () => (await import('./agents-command.ts')).agentsCommands, ['agentsList']),
  ...lazy(async () => (await import('./agents-stop-command.ts')).agentsControlCommands, ['agentsPs', 'agentsStop']),
  ...lazy(async () => (await import('./worktrees-command.ts')).worktreesCommands, ['worktreesList', 'worktreesDiff', 'worktreesMerge', 'worktreesRm']),
  ...lazy(async () => (await import('./tool-command.ts')).toolCommands, ['toolList', 'toolValidate', 'toolExec', 'toolInstall', 'toolRm', 'toolInit']),
  ...lazy(async () => (await import('./models-command.ts')).modelsCommands, ['modelsList']),
  ...lazy(async () => (await import('./mcp-command.ts')).mcpCommands, ['mcpAdd', 'mcpAddJson', 'mcpRemove', 'mcpList', 'mcpGet', 'mcpLogin', 'mcpLogout', 'mcpApprove']),
  ...lazy(async () => (await import('./cron-command.ts')).cronCommands, [
    'cronAdd',
    'cronList',
    'cronRm',
    'cronPause',
    'cronResume',
    'cronRun',
    'cronLogs',
    'cronServe',
    'cronInstallService',
  ]),
  ...lazy(async () => (await import('./cron-export-command.ts')).cronExportCommands, ['cronExport']),
  ...lazy(async () => (await import('./sandbox-command.ts')).sandboxCommands, ['sandboxStatus']),
  ...lazy(async () => (await import('./trust-command.ts')).trustCommands, ['trust']),
  ...lazy(async () => (await import('./acp-command.ts')).acpCommands, ['acp']),
  ...lazy(async () => (await import('./mcp-serve-command.ts')).mcpServeCommands, ['mcpServe']),
};

/** Commander's ways of ending that are not errors: help or the version was printed. */
const FINE = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** `program` throwing instead of exiting, its own error lines silenced: main() writes one line of its own. Help and version go to stdout. */
function quiet(program: Command): Command {
  for (const command of [program, ...program.commands, ...program.commands.flatMap((sub) => sub.commands)]) {
    command.exitOverride();
    command.configureOutput({ writeErr: () => {}, outputError: () => {} });
  }
  return program;
}

/** Parses `argv` with commander and runs its command; returns the exit code. A usage error is one line on stderr and exit 2. */
export async function runCommandLine(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = code;
  };
  try {
    try {
      // The program this command line can use: the root command's options it names, subcommands only when it names one.
      const program = needsSubcommands(argv) ? buildProgram(handlers, setExit, argv) : buildRootProgram(handlers, setExit, argv);
      await quiet(program).parseAsync(argv, { from: 'user' });
    } catch (e) {
      // A parse error (before any handler ran) is parsed again with the whole program: its message and suggestions are the whole command line's.
      if (!(e instanceof CommanderError) || FINE.has(e.code)) throw e;
      await quiet(buildProgram(handlers, setExit)).parseAsync(argv, { from: 'user' });
    }
    return exitCode;
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (FINE.has(e.code)) return EXIT.ok;
    err(`moat: ${e.message.replace(/^error: /, '')} (see moat --help)\n`);
    return EXIT.usage;
  }
}
