/** The CLI entry: parses argv, runs the command, returns the exit code. */
import { CommanderError } from 'commander';
import { describeFailure, EXIT } from './exit-codes.ts';
import { buildProgram } from './program.ts';
import { rootCommand } from './root-command.ts';
import { sessionsCommands } from './sessions-command.ts';
import { skillCommands } from './skill-command.ts';
import { agentsCommands } from './agents-command.ts';
import { agentsControlCommands } from './agents-stop-command.ts';
import { worktreesCommands } from './worktrees-command.ts';
import { toolCommands } from './tool-command.ts';
import { modelsCommands } from './models-command.ts';
import { sandboxCommands } from './sandbox-command.ts';
import { trustCommands } from './trust-command.ts';
import { mcpCommands } from './mcp-command.ts';
import { cronCommands } from './cron-command.ts';
import { err } from './write-out.ts';

/** Parses argv, runs the command, returns the exit code. Never throws. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram({ root: rootCommand, ...sessionsCommands, ...skillCommands, ...agentsCommands, ...agentsControlCommands, ...worktreesCommands, ...toolCommands, ...modelsCommands, ...mcpCommands, ...cronCommands, ...sandboxCommands, ...trustCommands }, (code) => {
    exitCode = code;
  });
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
