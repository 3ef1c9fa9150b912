import type { AgentEvent, AssistantMessage, ToolResultPart, Usage } from '../agent/index.ts';
import { newId } from '../util/index.ts';
import { SCHEMA_VERSION, type OutputLine, type ResultLine } from './schema.ts';

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
 * progress). Stateful only for the model name and session id.
 */
export class OutputMapper {
  private sessionId = '';
  private model = '';
  constructor(private readonly apiKeySource: string) {}

  map(e: AgentEvent): OutputLine | undefined {
    const base = { session_id: this.sessionId, uuid: newId(), parent_tool_use_id: null };
    switch (e.type) {
      case 'session_started':
        this.sessionId = e.sessionId;
        this.model = e.model;
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
      case 'assistant_message':
        return {
          type: 'assistant',
          message: { type: 'message', role: 'assistant', model: this.model, content: wireAssistantContent(e.message), usage: wireUsage(e.usage) },
          ...base,
        };
      case 'tool_results':
        return { type: 'user', message: { role: 'user', content: e.results.map(wireToolResult) }, ...base };
      case 'run_finished':
        return this.result(e);
      default:
        return undefined;
    }
  }

  result(e: Extract<AgentEvent, { type: 'run_finished' }>): ResultLine {
    return {
      type: 'result',
      subtype: SUBTYPE[e.stopReason],
      schema_version: SCHEMA_VERSION,
      is_error: e.stopReason !== 'end_turn',
      result: e.result,
      session_id: this.sessionId,
      uuid: newId(),
      num_turns: e.turns,
      duration_ms: e.durationMs,
      stop_reason: e.stopReason,
      total_cost_usd: e.costUsd,
      usage: wireUsage(e.usage),
      ...(e.error ? { error: e.error } : {}),
    };
  }
}
