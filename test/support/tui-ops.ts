/** `!cmd` and `/skill args` as the TUI sends them: the operation's events followed to their end, returned as its result. */
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

/** A skill's prompt and model (undefined: no such skill); its usage line (or any refusal) is thrown. */
export async function expandSkill(c: TuiClient, name: string, args: string, signal = new AbortController().signal, onEvent: (e: SessionEvent) => void = () => {}): Promise<{ prompt: string; model?: string } | undefined> {
  for await (const e of c.session.expandSkill(name, args, signal)) {
    if (e.type !== 'skill_expanded') {
      onEvent(e);
      continue;
    }
    if (e.error !== undefined) throw new Error(e.error);
    return e.prompt === undefined ? undefined : { prompt: e.prompt, ...(e.model === undefined ? {} : { model: e.model }) };
  }
  throw new Error(`/${name}: the events ended without skill_expanded`);
}
