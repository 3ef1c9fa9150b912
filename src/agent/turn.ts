/** One model request: streamed with the retry policy and translated into agent events. */
import type { AssistantMessage, Provider, ProviderError, ProviderRequest, StopReason, Usage } from '../providers/index.ts';
import { assertNever } from '../util/index.ts';
import type { AgentEvent } from './events.ts';
import { streamWithRetry } from './retry.ts';

export type TurnOutcome =
  | { kind: 'stop'; message: AssistantMessage; reason: StopReason; usage: Usage }
  | { kind: 'error'; error: ProviderError; partial: AssistantMessage; usage: Usage };

/** What one model request needs. */
export interface TurnRequest {
  provider: Provider;
  request: ProviderRequest;
  /** The turn number the events carry. */
  turn: number;
  signal: AbortSignal;
  idleTimeoutMs: number;
  retryBaseMs: number;
  emit: (e: AgentEvent) => void;
}

/**
 * One model request: streams it (with the retry policy) and translates
 * provider events into agent events. On a retry the consumer is told to drop
 * what it showed; the events of the failed attempt are never replayed.
 */
export async function streamTurn({ provider, request, turn, signal, idleTimeoutMs, retryBaseMs, emit }: TurnRequest): Promise<TurnOutcome> {
  // Block index → tool_use id, to tag input deltas.
  let toolIds = new Map<number, string>();
  for await (const item of streamWithRetry(provider, request, { signal, idleTimeoutMs, baseDelayMs: retryBaseMs })) {
    if (item.kind === 'retry') {
      toolIds = new Map();
      emit({
        type: 'retry',
        turn,
        attempt: item.attempt,
        maxRetries: item.maxRetries,
        delayMs: item.delayMs,
        message: item.error.message,
        kind: item.error.kind,
        ...(item.error.status === undefined ? {} : { status: item.error.status }),
      });
      continue;
    }
    const ev = item.event;
    // Each stream event goes out once: a delta as its own agent event, the block structure as `model_stream`.
    switch (ev.type) {
      case 'text_delta':
        emit({ type: 'text_delta', turn, index: ev.index, text: ev.text });
        break;
      case 'thinking_delta':
        emit({ type: 'thinking_delta', turn, index: ev.index, thinking: ev.thinking });
        break;
      case 'tool_use_start':
        toolIds.set(ev.index, ev.id);
        emit({ type: 'tool_call_started', toolUseId: ev.id, name: ev.name, index: ev.index });
        break;
      case 'tool_use_delta': {
        const id = toolIds.get(ev.index);
        if (id) emit({ type: 'tool_call_delta', toolUseId: id, partialJson: ev.partialJson, index: ev.index });
        break;
      }
      case 'stop':
        emit({ type: 'model_stream', turn, event: ev });
        for (const part of ev.message.content) {
          if (part.type === 'tool_use') emit({ type: 'tool_call_ready', toolUseId: part.id, name: part.name, input: part.input });
        }
        return { kind: 'stop', message: ev.message, reason: ev.reason, usage: ev.usage };
      case 'error':
        return { kind: 'error', error: ev.error, partial: ev.partial, usage: ev.usage };
      case 'message_start':
      case 'text_start':
      case 'thinking_start':
      case 'thinking_signature':
      case 'block_end':
      case 'usage':
        emit({ type: 'model_stream', turn, event: ev });
        break;
      default:
        assertNever(ev, 'provider event');
    }
  }
  // streamWithRetry always ends with stop or error; reaching here is a contract breach.
  return {
    kind: 'error',
    error: { kind: 'stream', message: 'the model stream ended without a result' },
    partial: { role: 'assistant', content: [] },
    usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  };
}

/**
 * What of an interrupted answer is kept: text (marked as interrupted) only.
 * Unsigned thinking and half-streamed tool calls cannot be sent back to the API.
 */
export function keepPartial(partial: AssistantMessage): AssistantMessage | undefined {
  const content = partial.content.filter((p) => p.type === 'text' && p.text.length > 0);
  if (content.length === 0) return undefined;
  return { role: 'assistant', content: [...content, { type: 'text', text: '\n\n[interrupted by the user]' }] };
}
