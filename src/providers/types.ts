/** The provider-neutral request, stream events and failure classes every adapter speaks. */
import type { AssistantMessage, Message, StopReason, ThinkingSource, Usage } from './messages.ts';

/** What a provider needs to know of a tool: nothing beyond this. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the input object. */
  inputSchema: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /** Extended thinking budget in tokens; omitted means thinking off. */
  thinkingBudget?: number;
}

export interface StreamOptions {
  signal: AbortSignal;
  /** Abort and report `stalled` when no bytes arrive for this long. */
  idleTimeoutMs: number;
}

/**
 * Failure classes. The agent's retry policy decides on these, never on
 * provider-specific error types.
 */
export type ProviderErrorKind =
  | 'rate_limit' // 429: retry after `retryAfterMs`
  | 'overloaded' // 529 / overloaded_error
  | 'server' // other 5xx, 408, 409
  | 'auth' // 401 / 403
  | 'bad_request' // 400, 404, 413, 422: never retried
  | 'connection' // failed before the response started
  | 'stream' // an `error` event or a dropped connection mid-stream
  | 'stalled' // no bytes for the idle timeout
  | 'aborted'; // the caller's signal

export interface ProviderError {
  kind: ProviderErrorKind;
  /** What a `bad_request` was about, where it matters to the caller: the history no longer fits the model. */
  reason?: 'context_too_long';
  /** One line, fit for a user to read. */
  message: string;
  status?: number;
  retryAfterMs?: number;
  requestId?: string;
}

/**
 * The single stream-event union every adapter produces. Content events carry
 * the block `index` in the assistant message being built.
 *
 * Contract: an adapter never throws once iteration starts; the stream always
 * ends with exactly one `stop` or `error` event, which carries the message as
 * accumulated so far.
 */
export type ProviderEvent =
  /** `id`: the provider's message id, when the wire carries one (stream-json mirrors it). */
  | { type: 'message_start'; model: string; usage: Usage; id?: string }
  | { type: 'text_start'; index: number }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_start'; index: number; redactedData?: string; source?: ThinkingSource }
  | { type: 'thinking_delta'; index: number; thinking: string }
  | { type: 'thinking_signature'; index: number; signature: string }
  | { type: 'tool_use_start'; index: number; id: string; name: string; signature?: string }
  | { type: 'tool_use_delta'; index: number; partialJson: string }
  | { type: 'block_end'; index: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'stop'; reason: StopReason; message: AssistantMessage; usage: Usage }
  | { type: 'error'; error: ProviderError; partial: AssistantMessage; usage: Usage };

export interface Provider {
  readonly name: string;
  stream(request: ProviderRequest, options: StreamOptions): AsyncIterable<ProviderEvent>;
  /**
   * A request to `model` is coming: start loading what it needs (an SDK's
   * module) now, without waiting, so that work overlaps what comes before
   * the request (git facts, hooks). Errors wait for the request to report them.
   */
  warm?(model: string): void;
}
