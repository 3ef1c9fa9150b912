/** The CLI entry: runs the command argv names and returns its exit code; commander reads every command line but `moat` alone. */
import { describeFailure } from './exit-codes.ts';
import { err } from './write-out.ts';
import { startupOver, startupPolicy } from '../util/index.ts';
import { prefetchGitInfo } from './git-prefetch.ts';
import { plainRootOptions } from './plain-command-line.ts';

/** Runs the command, returns the exit code. Never throws. */
export async function main(argv: string[]): Promise<number> {
  startupPolicy(argv);
  // Before anything else: git runs alongside the rest of start-up.
  prefetchGitInfo(argv);
  // Start-up is over at the TUI's first frame, and at the latest after a second:
  // long-running commands (cron, MCP serving, a slow first request) get the normal JIT policy too.
  setTimeout(startupOver, 1000).unref();
  try {
    // `moat` alone goes to the root command with the options commander would give it: commander is neither loaded nor
    // asked to build the program (command line to rootCommand ~8 ms less CPU before the UI's first frame, in-process
    // timestamps, 4 x 12 runs, load 4-7; docs/start-up-seams.md). Every other command line is commander's.
    const plain = plainRootOptions(argv);
    if (plain !== undefined) return await (await import('./root-command.ts')).rootCommand([], plain);
    return await (await import('./command-line.ts')).runCommandLine(argv);
  } catch (e) {
    const { code, message } = describeFailure(e);
    err(`${message}\n`);
    return code;
  }
}
