import type { AgentEvent, AssistantMessage, ModelUsage, ToolResultPart, Usage, WorktreeChanges } from '../agent/index.ts';
import { newId } from '../util/index.ts';
import { SCHEMA_VERSION, type OutputLine, type ResultLine, type WorktreeInfo } from './schema.ts';

export function wireUsage(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheCreationInputTokens,
    cache_read_input_tokens: u.cacheReadInputTokens,
  };
}

function wireAssistantContent(m: AssistantMessage) {
  return m.content.map((p) => {
    switch (p.type) {
      case 'text':
        return { type: 'text' as const, text: p.text };
      case 'thinking':
        return { type: 'thinking' as const, thinking: p.thinking, signature: p.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking' as const, data: p.data };
      case 'tool_use':
        return { type: 'tool_use' as const, id: p.id, name: p.name, input: p.input };
    }
  });
}

function wireToolResult(p: ToolResultPart) {
  const onlyText = p.content.every((c) => c.type === 'text');
  return {
    type: 'tool_result' as const,
    tool_use_id: p.toolUseId,
    content: onlyText
      ? p.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
      : p.content.map((c) =>
          c.type === 'text'
            ? { type: 'text' as const, text: c.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: c.mediaType, data: c.data } },
        ),
    is_error: p.isError,
  };
}

/** A branch with changes, or (changes undefined) one that was removed because nothing changed. */
export function wireWorktree(w: { id: string; branch: string; path: string }, changes: WorktreeChanges | undefined): WorktreeInfo {
  return {
    id: w.id,
    branch: w.branch,
    path: w.path,
    changed_files: (changes?.files ?? []).map((f) => ({ path: f.path, status: f.status, added: f.added, removed: f.removed })),
    diff_stat: changes?.diffStat ?? '',
  };
}

/** Who a line speaks for: the main session, or a sub-agent (with its own session). */
interface Origin {
  sessionId: string;
  model: string;
  parentToolUseId: string | null;
  agentId?: string;
  parentId?: string;
}

const SUBTYPE = {
  end_turn: 'success',
  max_turns: 'error_max_turns',
  budget: 'error_max_budget_usd',
  aborted: 'interrupted',
  error: 'error_during_execution',
} as const;

/**
 * Maps internal agent events to public output lines. Returns undefined for
 * events the public schema does not carry (permission dialogs, live tool
 * progress). Sub-agent events are unwrapped into ordinary lines tagged with
 * `agent_id`, `parent_id` and `parent_tool_use_id`; a sub-agent's own init
 * and result lines are left out (its `subagent_started` / `subagent_finished`
 * lines say the same), so the first and last lines stay the main session's.
 * Stateful only for model names and session ids.
 */
export class OutputMapper {
  private readonly top: Origin = { sessionId: '', model: '', parentToolUseId: null };
  private readonly agents = new Map<string, Origin>();
  constructor(private readonly apiKeySource: string) {}

  map(e: AgentEvent): OutputLine | undefined {
    return this.mapFrom(e, this.top);
  }

  private agentOrigin(agentId: string, parentToolUseId: string): Origin {
    return this.agents.get(agentId) ?? { sessionId: '', model: '', parentToolUseId, agentId, parentId: this.top.sessionId };
  }

  private mapFrom(e: AgentEvent, origin: Origin): OutputLine | undefined {
    const base = {
      session_id: origin.sessionId,
      uuid: newId(),
      parent_tool_use_id: origin.parentToolUseId,
      ...(origin.agentId === undefined ? {} : { agent_id: origin.agentId, parent_id: origin.parentId ?? '' }),
    };
    const isAgent = origin.agentId !== undefined;
    switch (e.type) {
      case 'subagent_started': {
        const child: Origin = { sessionId: e.sessionId, model: e.model, parentToolUseId: e.parentToolUseId, agentId: e.agentId, parentId: e.parentSessionId };
        this.agents.set(e.agentId, child);
        return {
          type: 'system',
          subtype: 'subagent_started',
          description: e.description,
          agent: e.agent ?? null,
          background: e.background,
          model: e.model,
          cwd: e.cwd,
          tools: e.tools,
          isolation: e.isolation,
          branch: e.worktree?.branch ?? null,
          session_id: child.sessionId,
          uuid: newId(),
          parent_tool_use_id: child.parentToolUseId,
          agent_id: e.agentId,
          parent_id: e.parentSessionId,
        };
      }
      case 'subagent_event':
        return this.mapFrom(e.event, this.agentOrigin(e.agentId, e.parentToolUseId));
      case 'subagent_finished': {
        const child = this.agentOrigin(e.agentId, e.parentToolUseId);
        this.agents.delete(e.agentId);
        return {
          type: 'system',
          subtype: 'subagent_finished',
          status: e.status,
          stop_reason: e.stopReason,
          result: e.result,
          num_turns: e.turns,
          duration_ms: e.durationMs,
          total_cost_usd: e.costUsd,
          usage: wireUsage(e.usage),
          worktree: e.changes ? wireWorktree(e.changes, e.changes) : null,
          ...(e.error === undefined ? {} : { error: e.error }),
          session_id: child.sessionId,
          uuid: newId(),
          parent_tool_use_id: child.parentToolUseId,
          agent_id: e.agentId,
          parent_id: child.parentId ?? '',
        };
      }
      case 'session_started':
        if (isAgent) {
          origin.sessionId = e.sessionId;
          origin.model = e.model;
          return undefined;
        }
        this.top.sessionId = e.sessionId;
        this.top.model = e.model;
        return {
          type: 'system',
          subtype: 'init',
          schema_version: SCHEMA_VERSION,
          cwd: e.cwd,
          model: e.model,
          tools: e.tools,
          permissionMode: e.permissionMode,
          apiKeySource: this.apiKeySource,
          resumed: e.resumed,
          ...base,
          session_id: e.sessionId,
        };
      case 'turn_started':
        return { type: 'stream_event', event: { type: 'message_start' }, ...base };
      case 'text_delta':
        return { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'text_delta', text: e.text } }, ...base };
      case 'thinking_delta':
        return {
          type: 'stream_event',
          event: { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: e.thinking } },
          ...base,
        };
      case 'tool_call_started':
        return {
          type: 'stream_event',
          event: { type: 'content_block_start', content_block: { type: 'tool_use', id: e.toolUseId, name: e.name } },
          ...base,
        };
      case 'tool_call_delta':
        return {
          type: 'stream_event',
          event: {
            type: 'content_block_delta',
            delta: { type: 'input_json_delta', partial_json: e.partialJson, tool_use_id: e.toolUseId },
          },
          ...base,
        };
      case 'retry':
        return { type: 'system', subtype: 'api_retry', attempt: e.attempt, retry_delay_ms: e.delayMs, error: e.message, ...base };
      case 'model_fallback':
        return { type: 'system', subtype: 'model_fallback', from_model: e.from, to_model: e.to, error: e.reason, ...base };
      case 'assistant_message':
        return {
          type: 'assistant',
          message: { type: 'message', role: 'assistant', model: e.model ?? origin.model, content: wireAssistantContent(e.message), usage: wireUsage(e.usage) },
          ...base,
        };
      case 'tool_results':
        return { type: 'user', message: { role: 'user', content: e.results.map(wireToolResult) }, ...base };
      case 'run_finished':
        return isAgent ? undefined : this.result(e);
      default:
        return undefined;
    }
  }

  result(e: Extract<AgentEvent, { type: 'run_finished' }>, worktree?: WorktreeInfo): ResultLine {
    return {
      type: 'result',
      subtype: SUBTYPE[e.stopReason],
      schema_version: SCHEMA_VERSION,
      is_error: e.stopReason !== 'end_turn',
      result: e.result,
      session_id: this.top.sessionId,
      uuid: newId(),
      num_turns: e.turns,
      duration_ms: e.durationMs,
      stop_reason: e.stopReason,
      total_cost_usd: e.costUsd,
      usage: wireUsage(e.usage),
      ...(e.modelUsage === undefined ? {} : { modelUsage: wireModelUsage(e.modelUsage) }),
      ...(e.error ? { error: e.error } : {}),
      ...(worktree === undefined ? {} : { worktree }),
    };
  }
}

function wireModelUsage(m: Record<string, ModelUsage>): NonNullable<ResultLine['modelUsage']> {
  const out: NonNullable<ResultLine['modelUsage']> = {};
  for (const [model, { usage, costUsd }] of Object.entries(m)) out[model] = { ...usage, costUSD: costUsd };
  return out;
}
