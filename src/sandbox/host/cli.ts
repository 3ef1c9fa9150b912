/** WASI host: wasi:cli (arguments, environment, exit, stdio, terminal). */
import type { HostContext } from './context.ts';
import { WasiExit } from './errors.ts';
import type { InputStream, OutputStream } from './streams.ts';

/**
 * wasi:cli — arguments, environment, exit, stdio and the terminal
 * interfaces. Nothing here reads the real process: the environment is only
 * the declared variables, and no stream is a terminal.
 */

export class TerminalInput {}
export class TerminalOutput {}

export interface CliInputs {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
}

type ExitStatus = { tag: 'ok' } | { tag: 'err' };

export function createCli(io: CliInputs, ctx: HostContext): Record<string, object> {
  const args = io.args.slice();
  const env: [string, string][] = Object.entries(io.env);
  const noTerminal = (): undefined => undefined;
  return {
    'wasi:cli/environment': {
      getArguments: () => args,
      getEnvironment: () => env,
      initialCwd: () => undefined,
    },
    'wasi:cli/exit': {
      exit: (status: ExitStatus): never => {
        throw new WasiExit(status.tag === 'ok' ? 0 : 1);
      },
      exitWithCode: (code: number): never => {
        throw new WasiExit(code);
      },
    },
    'wasi:cli/stdin': {
      getStdin: () => {
        ctx.checkDeadline();
        return io.stdin;
      },
    },
    'wasi:cli/stdout': { getStdout: () => io.stdout },
    'wasi:cli/stderr': { getStderr: () => io.stderr },
    'wasi:cli/terminal-input': { TerminalInput },
    'wasi:cli/terminal-output': { TerminalOutput },
    'wasi:cli/terminal-stdin': { getTerminalStdin: noTerminal },
    'wasi:cli/terminal-stdout': { getTerminalStdout: noTerminal },
    'wasi:cli/terminal-stderr': { getTerminalStderr: noTerminal },
  };
}
