/** moat's session events, and a saved conversation, as ACP `session/update` notifications. */
import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { Message } from '../agent/index.ts';
import type { SessionEvent } from '../protocol/index.ts';
import { displayContent, inputDiff, toolKind, toolLocations, toolTitle } from './tool-calls.ts';

type TodoItems = Extract<SessionEvent, { type: 'todos' }>['items'];

/** The todo list as the editor's plan. */
export function planUpdate(items: TodoItems): SessionUpdate {
  const entries: PlanEntry[] = items.map((t) => ({ content: t.content, priority: 'medium', status: t.status }));
  return { sessionUpdate: 'plan', entries };
}

/**
 * Turns one run's events into updates. Keeps what later events need: each
 * call's name and input (a finished edit shows its diff, a result its text).
 */
export class UpdateMapper {
  private readonly calls = new Map<string, { name: string; input: unknown }>();

  constructor(
    private readonly cwd: string,
    /** Calls whose command runs in an editor terminal: their cards show the terminal, not a copy of its output. */
    private readonly terminals: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** The updates for one event; most events have none (usage, turn boundaries, the model's raw stream). */
  map(e: SessionEvent): SessionUpdate[] {
    switch (e.type) {
      case 'text_delta':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: e.text } }];
      case 'thinking_delta':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: e.thinking } }];
      case 'tool_call_ready':
        this.calls.set(e.toolUseId, { name: e.name, input: e.input });
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: e.toolUseId,
            title: toolTitle(e.name, e.input),
            kind: toolKind(e.name),
            status: 'pending',
            locations: toolLocations(e.name, e.input, this.cwd),
            content: inputDiff(e.name, e.input, this.cwd),
            rawInput: e.input,
          },
        ];
      case 'tool_started':
        return [{ sessionUpdate: 'tool_call_update', toolCallId: e.toolUseId, status: 'in_progress' }];
      case 'tool_update': {
        const terminal = this.terminal(e.toolUseId);
        return [{ sessionUpdate: 'tool_call_update', toolCallId: e.toolUseId, content: terminal ?? displayContent(e.display, undefined) }];
      }
      case 'tool_finished': {
        const call = this.calls.get(e.toolUseId);
        const terminal = this.terminal(e.toolUseId);
        // A finished edit keeps showing its diff; a failure shows why; a terminal stays on its card (the editor keeps its output after release).
        const shown = e.isError ? displayContent(undefined, e.content) : displayContent(e.display, e.content);
        const content = terminal === undefined ? shown : e.isError ? [...terminal, ...shown] : terminal;
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: e.toolUseId,
            status: e.isError ? 'failed' : 'completed',
            ...(content.length === 0 && call !== undefined ? {} : { content }),
            rawOutput: e.content,
          },
        ];
      }
      case 'todos':
        return [planUpdate(e.items)];
      default:
        return [];
    }
  }

  private terminal(toolUseId: string): ToolCallContent[] | undefined {
    const terminalId = this.terminals.get(toolUseId);
    return terminalId === undefined ? undefined : [{ type: 'terminal', terminalId }];
  }

  /** The title of a call seen in this run (for the permission question). */
  call(toolUseId: string): { name: string; input: unknown } | undefined {
    return this.calls.get(toolUseId);
  }
}

/**
 * A saved conversation as the updates that would have shown it: the user's
 * words, the answers and thinking, each tool call with its result.
 */
export function replayUpdates(messages: readonly Message[], cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      for (const p of m.content) {
        if (p.type === 'text') out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: p.text } });
        else if (p.type === 'image') out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'image', data: p.data, mimeType: p.mediaType } });
        else {
          const text = p.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
          out.push({
            sessionUpdate: 'tool_call_update',
            toolCallId: p.toolUseId,
            status: p.isError ? 'failed' : 'completed',
            ...(text === '' ? {} : { content: [{ type: 'content', content: { type: 'text', text } }] }),
          });
        }
      }
      continue;
    }
    for (const p of m.content) {
      if (p.type === 'text') out.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: p.text } });
      else if (p.type === 'thinking') out.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: p.thinking } });
      else if (p.type === 'tool_use') {
        out.push({
          sessionUpdate: 'tool_call',
          toolCallId: p.id,
          title: toolTitle(p.name, p.input),
          kind: toolKind(p.name),
          status: 'pending',
          locations: toolLocations(p.name, p.input, cwd),
          content: inputDiff(p.name, p.input, cwd),
          rawInput: p.input,
        });
      }
    }
  }
  return out;
}
