/** The CLI entry: parses argv, runs the command, returns the exit code. */
import { CommanderError } from 'commander';
import { describeFailure, EXIT } from './exit-codes.ts';
import { buildProgram, type Handlers } from './program.ts';
import { err } from './write-out.ts';
import { startupOver, startupPolicy } from '../util/index.ts';
import { prefetchGitInfo } from './git-prefetch.ts';

/**
 * Handlers whose module is imported when one of them runs: each command
 * evaluates only its own code (`moat -p` never evaluates the MCP, cron or
 * tool commands, and they never evaluate the agent loop).
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
  ...lazy(async () => (await import('./skill-command.ts')).skillCommands, ['skillList', 'skillShow', 'skillInit']),
  ...lazy(async () => (await import('./agents-command.ts')).agentsCommands, ['agentsList']),
  ...lazy(async () => (await import('./agents-stop-command.ts')).agentsControlCommands, ['agentsPs', 'agentsStop']),
  ...lazy(async () => (await import('./worktrees-command.ts')).worktreesCommands, ['worktreesList', 'worktreesDiff', 'worktreesMerge', 'worktreesRm']),
  ...lazy(async () => (await import('./tool-command.ts')).toolCommands, ['toolList', 'toolValidate', 'toolExec', 'toolInstall', 'toolRm', 'toolInit']),
  ...lazy(async () => (await import('./models-command.ts')).modelsCommands, ['modelsList']),
  ...lazy(async () => (await import('./mcp-command.ts')).mcpCommands, ['mcpAdd', 'mcpRemove', 'mcpList', 'mcpGet', 'mcpLogin', 'mcpLogout', 'mcpApprove']),
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
  ...lazy(async () => (await import('./sandbox-command.ts')).sandboxCommands, ['sandboxStatus']),
  ...lazy(async () => (await import('./trust-command.ts')).trustCommands, ['trust']),
};

/** Parses argv, runs the command, returns the exit code. Never throws. */
export async function main(argv: string[]): Promise<number> {
  startupPolicy(argv);
  // Before anything else: git runs alongside the rest of start-up.
  prefetchGitInfo(argv);
  // Start-up is over at the TUI's first frame, and at the latest after a second:
  // long-running commands (cron, MCP serving, a slow first request) get the normal JIT policy too.
  setTimeout(startupOver, 1000).unref();
  let exitCode: number = EXIT.ok;
  const program = buildProgram(
    handlers,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  program.exitOverride();
  program.configureOutput({
    // Commander's own errors become one line on stderr; help and version go to stdout.
    writeErr: () => {},
    outputError: () => {},
  });
  for (const sub of program.commands) {
    sub.exitOverride();
    sub.configureOutput({ writeErr: () => {}, outputError: () => {} });
    for (const subsub of sub.commands) {
      subsub.exitOverride();
      subsub.configureOutput({ writeErr: () => {}, outputError: () => {} });
    }
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      const msg = e.message.replace(/^error: /, '');
      err(`moat: ${msg} (see moat --help)\n`);
      return EXIT.usage;
    }
    const { code, message } = describeFailure(e);
    err(`${message}\n`);
    return code;
  }
}
