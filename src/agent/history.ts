/** Repairs a stored history after a crash and merges consecutive user messages for the API. */
import type { Message, ToolResultPart, UserMessage } from '../providers/index.ts';

export const INTERRUPTED_RESULT = 'Tool execution was interrupted before it finished (moat was stopped). No result is available.';

/**
 * Makes a stored history valid for the API again after a crash or kill -9:
 * every tool_use must be answered by a tool_result in the next message.
 * Returns the repaired history and the user messages it had to add or amend
 * (so the caller can persist them).
 */
export function repairHistory(stored: readonly Message[]): { messages: Message[]; repaired: boolean } {
  const messages = [...stored];
  const out: Message[] = [];
  let repaired = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant') continue;
    const ids = m.content.filter((p) => p.type === 'tool_use').map((p) => p.id);
    if (ids.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set(
      next?.role === 'user' ? next.content.filter((p) => p.type === 'tool_result').map((p) => p.toolUseId) : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length === 0) continue;
    repaired = true;
    const fill: ToolResultPart[] = missing.map((id) => ({
      type: 'tool_result',
      toolUseId: id,
      content: [{ type: 'text', text: INTERRUPTED_RESULT }],
      isError: true,
    }));
    if (next?.role === 'user') {
      // Results must come first in the user message, in tool_use order.
      messages[i + 1] = { role: 'user', content: [...next.content.filter((p) => p.type === 'tool_result'), ...fill, ...next.content.filter((p) => p.type !== 'tool_result')] };
    } else {
      out.push({ role: 'user', content: fill });
    }
  }
  return { messages: out, repaired };
}

/**
 * The API wants user and assistant turns to alternate. A run stopped at the
 * turn cap ends on a user message (tool results); the next prompt is merged
 * into it rather than sent as a second user turn.
 */
export function mergeConsecutiveUsers(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === 'user' && m.role === 'user') {
      out[out.length - 1] = { role: 'user', content: [...last.content, ...m.content] } satisfies UserMessage;
    } else {
      out.push(m);
    }
  }
  return out;
}
