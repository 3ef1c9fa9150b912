/** The model stream as Anthropic Messages API stream events, for stream-json's `stream_event` lines. */
import type { ModelStreamEvent, Usage } from '../agent/index.ts';
import type { SessionEvent } from '../protocol/index.ts';
import type { WireStreamEvent, WireUsage } from './schema.ts';

export function wireUsage(u: Usage): WireUsage {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheCreationInputTokens,
    cache_read_input_tokens: u.cacheReadInputTokens,
  };
}

/**
 * Turns the neutral model stream back into the wire sequence: message_start
 * (with the message), content_block_start/delta/stop per block, then
 * message_delta (stop reason and final usage) and message_stop. The message
 * id is the provider's when it has one, else `fallbackId`.
 */
/** A model stream event as a run reports it: the block structure (`model_stream`) or one of the deltas, each sent once. */
export type StreamPart = ModelStreamEvent | Extract<SessionEvent, { type: 'text_delta' | 'thinking_delta' | 'tool_call_started' | 'tool_call_delta' }>;

export function toWireStreamEvents(e: StreamPart, fallbackId: string): WireStreamEvent[] {
  switch (e.type) {
    case 'message_start':
      return [
        {
          type: 'message_start',
          message: {
            id: e.id ?? fallbackId,
            type: 'message',
            role: 'assistant',
            model: e.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: wireUsage(e.usage),
          },
        },
      ];
    case 'text_start':
      return [{ type: 'content_block_start', index: e.index, content_block: { type: 'text', text: '' } }];
    case 'text_delta':
      return [{ type: 'content_block_delta', index: e.index, delta: { type: 'text_delta', text: e.text } }];
    case 'thinking_start':
      return [
        {
          type: 'content_block_start',
          index: e.index,
          content_block: e.redactedData === undefined ? { type: 'thinking', thinking: '', signature: '' } : { type: 'redacted_thinking', data: e.redactedData },
        },
      ];
    case 'thinking_delta':
      return [{ type: 'content_block_delta', index: e.index, delta: { type: 'thinking_delta', thinking: e.thinking } }];
    case 'thinking_signature':
      return [{ type: 'content_block_delta', index: e.index, delta: { type: 'signature_delta', signature: e.signature } }];
    case 'tool_call_started':
      return [{ type: 'content_block_start', index: e.index, content_block: { type: 'tool_use', id: e.toolUseId, name: e.name, input: {} } }];
    case 'tool_call_delta':
      return [{ type: 'content_block_delta', index: e.index, delta: { type: 'input_json_delta', partial_json: e.partialJson } }];
    case 'block_end':
      return [{ type: 'content_block_stop', index: e.index }];
    case 'usage':
      // The usage rides on message_delta, which is written at `stop` once the stop reason is known.
      return [];
    case 'stop':
      return [
        { type: 'message_delta', delta: { stop_reason: e.reason, stop_sequence: null }, usage: wireUsage(e.usage) },
        { type: 'message_stop' },
      ];
  }
}
