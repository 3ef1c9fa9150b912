/** `!cmd` as the TUI sends it: the `shell` operation's events followed to its `shell_finished`, returned as the result. */
import type { SessionEvent, ShellResult } from '../../src/protocol/index.ts';
import type { TuiClient } from '../../src/tui/index.ts';

/** The events before the end go to `onEvent` (a permission question among them); a command that could not run throws its error. */
export async function runShell(c: TuiClient, command: string, signal: AbortSignal, onEvent: (e: SessionEvent) => void = () => {}): Promise<ShellResult> {
  for await (const e of c.session.shell(command, signal)) {
    if (e.type !== 'shell_finished') {
      onEvent(e);
      continue;
    }
    if (e.error !== undefined) throw new Error(e.error);
    return { command: e.command, output: e.output, exitCode: e.exitCode, durationMs: e.durationMs };
  }
  throw new Error(`!${command}: the events ended without shell_finished`);
}
