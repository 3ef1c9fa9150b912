/**
 * The editor's terminals (ACP `terminal/*`), when it offers them: a command runs in a terminal the
 * editor shows live, and the call's card carries that terminal. What runs there is the caller's
 * choice (moat hands over its own sandbox launcher, never the bare command).
 */
import * as acp from '@agentclientprotocol/sdk';

export interface TerminalCommand {
  command: string;
  args: string[];
  cwd: string;
  /** The editor keeps at most this many bytes of output, cutting from the start. */
  outputByteLimit: number;
}

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalOutput {
  output: string;
  truncated: boolean;
  exit?: TerminalExit;
}

/** One terminal the editor made: wait, read, kill, and release it once done (always). */
export interface ClientTerminal {
  id: string;
  waitForExit(): Promise<TerminalExit>;
  output(): Promise<TerminalOutput>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

export interface ClientTerminals {
  /** A terminal running `command`, shown on the card of tool call `toolCallId`. */
  create(toolCallId: string, command: TerminalCommand): Promise<ClientTerminal>;
}

/** Which tool call shows which terminal: the updates for a call with one carry it instead of the output text. */
export type TerminalsByCall = Map<string, string>;

export function clientTerminals(client: acp.AgentContext, byCall: TerminalsByCall): (sessionId: () => string) => ClientTerminals {
  return (sessionId) => ({
    async create(toolCallId, c) {
      const handle = await client.createTerminal({ sessionId: sessionId(), command: c.command, args: c.args, cwd: c.cwd, outputByteLimit: c.outputByteLimit });
      byCall.set(toolCallId, handle.id);
      return {
        id: handle.id,
        waitForExit: async () => {
          const r = await handle.waitForExit();
          return { exitCode: r.exitCode ?? null, signal: r.signal ?? null };
        },
        output: async () => {
          const r = await handle.currentOutput();
          const exit = r.exitStatus ?? undefined;
          return { output: r.output, truncated: r.truncated, ...(exit === undefined ? {} : { exit: { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null } }) };
        },
        kill: async () => {
          await handle.kill();
        },
        release: async () => {
          await handle.release();
        },
      };
    },
  });
}
