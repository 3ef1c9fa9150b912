/** Runs one validated tool call; every failure becomes a result the model can act on, and invalid input gets its instruction. */
import type { z } from 'zod';
import { errorMessage } from '../util/index.ts';
import { ToolError, type AnyTool, type ToolContext, type ToolResult } from './types.ts';

/** What the model is told when the user interrupted a call (Esc / Ctrl-C). */
export const ABORTED_TOOL_MESSAGE = 'Aborted: the user interrupted this tool call before it finished.';

export function abortedToolResult(): ToolResult {
  return { content: ABORTED_TOOL_MESSAGE, isError: true };
}

/** A call to a tool that does not exist (or is not offered): an instruction, so the model can recover. */
export function unknownToolResult(name: string, available: readonly string[]): ToolResult {
  const list = available.length > 0 ? available.join(', ') : '(none)';
  return { content: `Unknown tool: ${name}. Available tools: ${list}. Call one of these instead.`, isError: true };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
  switch (issue.code) {
    case 'invalid_type':
      return `${where}: expected ${issue.expected}`;
    case 'unrecognized_keys':
      return `${where}: unknown ${issue.keys.length > 1 ? 'keys' : 'key'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/** The model's input failed the schema: say what is wrong, worded as an instruction. */
export function invalidInputMessage(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  return `Invalid input for ${toolName}: ${issues.map(describeIssue).join('; ')}. Rewrite the input so it satisfies the schema.`;
}

/**
 * Runs a call whose input the caller already validated against the tool's
 * schema (the agent validates once, before the permission check, and runs
 * what it checked; invalid input is answered with `invalidInputMessage`).
 * Never throws: a ToolError and any unexpected failure become `isError`
 * results the model can act on, so one broken call cannot end the session.
 */
export async function runParsedTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return abortedToolResult();
  try {
    return await tool.execute(input, ctx);
  } catch (e) {
    // Whatever the tool threw while being aborted, the honest answer is "aborted".
    if (ctx.signal.aborted) return abortedToolResult();
    if (e instanceof ToolError) return { content: e.message, isError: true, ...(e.retryable ? { retryable: true } : {}) };
    // Not a failure the tool foresaw: perhaps a passing one, so a configured retry may try again.
    return { content: `${tool.name} failed: ${errorMessage(e)}`, isError: true, retryable: true };
  }
}
