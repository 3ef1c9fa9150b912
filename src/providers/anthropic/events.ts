/**
 * Anthropic SSE events → neutral `ProviderEvent`s, as the `FrameMapper` that
 * `driveStream` runs. Stateful only in what the wire leaves implicit: the
 * usage so far, the stop reason (it arrives in `message_delta`, before
 * `message_stop`) and the mapping from wire block indexes to ours (blocks we
 * do not model, such as server tool results, are skipped without leaving a
 * hole in the neutral indexes).
 */
import type { ServerSentEvent } from '@anthropic-ai/sdk/core/streaming';
import type { RawMessageStreamEvent, StopReason as WireStopReason } from '@anthropic-ai/sdk/resources/messages';
import type { FrameMapper, MappedFrame } from '../drive-stream.ts';
import { parseJson } from '../failure.ts';
import { ZERO_USAGE, type StopReason, type Usage } from '../messages.ts';
import type { ProviderEvent } from '../types.ts';
import { sseError } from './errors.ts';

const NOTHING: MappedFrame = Object.freeze({ events: [] });

export class WireMapper implements FrameMapper<ServerSentEvent> {
  usage: Usage = ZERO_USAGE;
  stopReason: StopReason = 'end_turn';
  private readonly indexes = new Map<number, number>();
  private nextIndex = 0;

  /** @param requestId the response's `request-id` header, named in an in-band error. */
  constructor(private readonly requestId: () => string | undefined = () => undefined) {}

  map(sse: ServerSentEvent): MappedFrame {
    if (sse.event === 'ping') return NOTHING;
    if (sse.event === 'error') return { events: [], error: sseError(parseJson(sse.data), this.requestId()) };
    const data = parseJson(sse.data);
    if (data === undefined) throw new Error(`invalid JSON in a ${sse.event ?? 'message'} event`);
    // An event type newer than this adapter: the API may add them at any time.
    if (!isWireEvent(data)) return NOTHING;
    try {
      return this.mapEvent(data);
    } catch (e) {
      // A known event type with fields missing (a broken proxy, a truncated JSON object).
      throw new Error(`unreadable ${data.type} event (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
  }

  /** The body ended without `message_stop`: the driver reports a truncated response. */
  end(): MappedFrame {
    return NOTHING;
  }

  private mapEvent(event: RawMessageStreamEvent): MappedFrame {
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage;
        this.usage = {
          inputTokens: u.input_tokens,
          outputTokens: u.output_tokens,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
          cacheReadInputTokens: u.cache_read_input_tokens ?? 0,
        };
        return emit({ type: 'message_start', model: event.message.model, usage: this.usage, id: event.message.id });
      }
      case 'content_block_start':
        return this.blockStart(event.index, event.content_block);
      case 'content_block_delta': {
        const index = this.indexes.get(event.index);
        if (index === undefined) return NOTHING;
        const d = event.delta;
        switch (d.type) {
          case 'text_delta':
            return emit({ type: 'text_delta', index, text: d.text });
          case 'thinking_delta':
            return emit({ type: 'thinking_delta', index, thinking: d.thinking });
          case 'signature_delta':
            return emit({ type: 'thinking_signature', index, signature: d.signature });
          case 'input_json_delta':
            return emit({ type: 'tool_use_delta', index, partialJson: d.partial_json });
          default:
            // citations_delta and future delta kinds carry nothing we model.
            return NOTHING;
        }
      }
      case 'content_block_stop': {
        const index = this.indexes.get(event.index);
        return index === undefined ? NOTHING : emit({ type: 'block_end', index });
      }
      case 'message_delta': {
        if (event.delta.stop_reason !== null) this.stopReason = toStopReason(event.delta.stop_reason);
        const u = event.usage;
        // message_delta usage is cumulative: every field present overwrites; none adds.
        this.usage = {
          inputTokens: u.input_tokens ?? this.usage.inputTokens,
          outputTokens: u.output_tokens,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? this.usage.cacheCreationInputTokens,
          cacheReadInputTokens: u.cache_read_input_tokens ?? this.usage.cacheReadInputTokens,
        };
        return emit({ type: 'usage', usage: this.usage });
      }
      case 'message_stop':
        return { events: [], stop: this.stopReason };
      default:
        return NOTHING;
    }
  }

  private blockStart(
    wireIndex: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): MappedFrame {
    const take = (): number => {
      const index = this.nextIndex++;
      this.indexes.set(wireIndex, index);
      return index;
    };
    switch (block.type) {
      case 'text': {
        const index = take();
        const events: ProviderEvent[] = [{ type: 'text_start', index }];
        // The API starts blocks empty, but the protocol allows initial content.
        if (block.text !== '') events.push({ type: 'text_delta', index, text: block.text });
        return { events };
      }
      case 'thinking': {
        const index = take();
        const events: ProviderEvent[] = [{ type: 'thinking_start', index }];
        if (block.thinking !== '') events.push({ type: 'thinking_delta', index, thinking: block.thinking });
        if (block.signature !== '') events.push({ type: 'thinking_signature', index, signature: block.signature });
        return { events };
      }
      case 'redacted_thinking':
        return emit({ type: 'thinking_start', index: take(), redactedData: block.data });
      case 'tool_use':
        // `block.input` is always `{}` here; the real input streams as input_json_delta.
        return emit({ type: 'tool_use_start', index: take(), id: block.id, name: block.name });
      default:
        // Server tool blocks (web search results and the like): we never request those tools.
        return NOTHING;
    }
  }
}

function emit(event: ProviderEvent): MappedFrame {
  return { events: [event] };
}

const WIRE_TYPES = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
]);

function isWireEvent(data: unknown): data is RawMessageStreamEvent {
  return typeof data === 'object' && data !== null && 'type' in data && typeof data.type === 'string' && WIRE_TYPES.has(data.type);
}

export function toStopReason(reason: WireStopReason | string): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'max_tokens':
    case 'tool_use':
    case 'stop_sequence':
    case 'pause_turn':
    case 'refusal':
      return reason;
    case 'model_context_window_exceeded':
      // Same consequence for the agent: the output was cut off by a token limit.
      return 'max_tokens';
    default:
      return 'end_turn';
  }
}
