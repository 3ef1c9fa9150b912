/**
 * `moat mcp serve --tools`: moat's own tools (Read, Grep, Glob, Edit, Bash…) as MCP tools, as
 * `claude mcp serve` offers Claude Code's. Each call is one turn of a session whose "model" is the
 * caller (cli/caller-model.ts): the call goes through the same hooks, permission gate and OS sandbox
 * as a call the model makes. Nobody can be asked, so the server's mode and rules decide, and what
 * would be asked is denied.
 */
import type { ZodType } from 'zod';
import type { SessionHost } from '../protocol/index.ts';

/** One tool as the caller sees it: its name, the description the model reads, and its input. */
export interface ExposedTool {
  name: string;
  description: string;
  inputSchema: ZodType;
  readOnly: boolean;
}

export interface ToolCallResult {
  text: string;
  isError: boolean;
}

/** The session the calls run in, and how to hand its "model" the caller's call. */
export interface ToolHost {
  tools: readonly ExposedTool[];
  host: SessionHost;
  /** The next request the session makes returns this call; the one after it ends the turn. */
  queueCall(call: { id: string; name: string; input: unknown }): void;
  close(): Promise<void>;
}

let callCount = 0;

/**
 * Runs the calls one at a time (one session, one turn at a time), each to its result.
 * A call the gate refused comes back as an error result saying why, never as a silent allow.
 */
export function toolRunner(tools: ToolHost): (name: string, input: unknown, signal: AbortSignal) => Promise<ToolCallResult> {
  let queue: Promise<unknown> = Promise.resolve();
  return (name, input, signal) => {
    const run = async (): Promise<ToolCallResult> => {
      const id = `toolu_mcp_${process.pid}_${++callCount}`;
      tools.queueCall({ id, name, input });
      let result: ToolCallResult | undefined;
      for await (const e of tools.host.turn(`The MCP client calls ${name}.`, signal)) {
        if (e.type === 'tool_finished' && e.toolUseId === id) result = { text: e.content, isError: e.isError };
      }
      return result ?? { text: signal.aborted ? `${name} was cancelled.` : `${name} did not run.`, isError: true };
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
}
