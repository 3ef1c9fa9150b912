/**
 * A pure reducer that folds `ProviderEvent`s into the assistant message they
 * describe. Adapters use it to build the message carried by the final `stop` /
 * `error` event; the agent may use it to check a stream. It rejects orders a
 * correct adapter can never produce, so a bug in an adapter (or a server that
 * breaks the protocol) surfaces as a typed error instead of a garbled message.
 */
import {
  ZERO_USAGE,
  type AssistantMessage,
  type AssistantPart,
  type StopReason,
  type ThinkingSource,
  type Usage,
} from './messages.ts';
import type { ProviderEvent } from './types.ts';

export class AccumulateError extends Error {
  readonly code = 'accumulate';
  constructor(message: string) {
    super(message);
    this.name = 'AccumulateError';
  }
}

type BlockState =
  | { readonly kind: 'text'; readonly open: boolean; readonly text: string }
  | {
      readonly kind: 'thinking';
      readonly open: boolean;
      readonly thinking: string;
      readonly signature: string;
      readonly source?: ThinkingSource;
    }
  | { readonly kind: 'redacted_thinking'; readonly open: boolean; readonly data: string; readonly source?: ThinkingSource }
  | {
      readonly kind: 'tool_use';
      readonly open: boolean;
      readonly id: string;
      readonly name: string;
      readonly signature?: string;
      /** The raw input JSON as received so far. */
      readonly json: string;
      /** Parsed at `block_end`; undefined while the block is open. */
      readonly input: unknown;
    };

export interface AccumulatorState {
  /** `new`: nothing yet; `open`: after message_start; `stopped` / `failed`: after the final event. */
  readonly phase: 'new' | 'open' | 'stopped' | 'failed';
  readonly model: string;
  readonly usage: Usage;
  readonly blocks: readonly BlockState[];
  readonly stopReason: StopReason | null;
}

export function createAccumulator(): AccumulatorState {
  return { phase: 'new', model: '', usage: ZERO_USAGE, blocks: [], stopReason: null };
}

/** Folds one event into the state. Never mutates `state`; throws `AccumulateError` on an impossible order. */
export function accumulate(state: AccumulatorState, event: ProviderEvent): AccumulatorState {
  if (state.phase === 'stopped' || state.phase === 'failed') {
    throw new AccumulateError(`${event.type} after the stream ended`);
  }
  switch (event.type) {
    case 'message_start':
      if (state.phase !== 'new') throw new AccumulateError('second message_start');
      return { ...state, phase: 'open', model: event.model, usage: event.usage };
    case 'error':
      // An error may end the stream at any point, even before message_start (connection refused).
      return { ...state, phase: 'failed', usage: event.usage };
    default:
      break;
  }
  if (state.phase !== 'open') throw new AccumulateError(`${event.type} before message_start`);
  switch (event.type) {
    case 'text_start':
      return startBlock(state, event.index, { kind: 'text', open: true, text: '' });
    case 'thinking_start':
      return startBlock(
        state,
        event.index,
        event.redactedData === undefined
          ? { kind: 'thinking', open: true, thinking: '', signature: '', ...sourceOf(event.source) }
          : { kind: 'redacted_thinking', open: true, data: event.redactedData, ...sourceOf(event.source) },
      );
    case 'tool_use_start':
      return startBlock(state, event.index, {
        kind: 'tool_use',
        open: true,
        id: event.id,
        name: event.name,
        ...(event.signature === undefined ? {} : { signature: event.signature }),
        json: '',
        input: undefined,
      });
    case 'text_delta': {
      const block = openBlock(state, event.index, event.type);
      if (block.kind !== 'text') throw wrongKind(event.type, event.index, block.kind);
      return replaceBlock(state, event.index, { ...block, text: block.text + event.text });
    }
    case 'thinking_delta': {
      const block = openBlock(state, event.index, event.type);
      if (block.kind !== 'thinking') throw wrongKind(event.type, event.index, block.kind);
      return replaceBlock(state, event.index, { ...block, thinking: block.thinking + event.thinking });
    }
    case 'thinking_signature': {
      const block = openBlock(state, event.index, event.type);
      if (block.kind !== 'thinking') throw wrongKind(event.type, event.index, block.kind);
      // The API sends the signature in one delta; concatenating keeps a split one intact too.
      return replaceBlock(state, event.index, { ...block, signature: block.signature + event.signature });
    }
    case 'tool_use_delta': {
      const block = openBlock(state, event.index, event.type);
      if (block.kind !== 'tool_use') throw wrongKind(event.type, event.index, block.kind);
      return replaceBlock(state, event.index, { ...block, json: block.json + event.partialJson });
    }
    case 'block_end': {
      const block = openBlock(state, event.index, event.type);
      if (block.kind !== 'tool_use') return replaceBlock(state, event.index, { ...block, open: false });
      return replaceBlock(state, event.index, { ...block, open: false, input: parseToolInput(block.json, block.name) });
    }
    case 'usage':
      return { ...state, usage: event.usage };
    case 'stop': {
      const open = state.blocks.findIndex((b) => b.open);
      if (open !== -1) throw new AccumulateError(`stop while block ${open} is still open`);
      return { ...state, phase: 'stopped', usage: event.usage, stopReason: event.reason };
    }
  }
}

/**
 * The message as accumulated so far. Closed blocks appear as they are; open
 * text and thinking blocks with what has arrived; an unfinished tool_use is left
 * out, because its input is not a value yet and a tool_use without a valid input
 * could never be sent back to the API.
 */
export function messageOf(state: AccumulatorState): AssistantMessage {
  const content: AssistantPart[] = [];
  for (const block of state.blocks) {
    switch (block.kind) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature, ...sourceOf(block.source) });
        break;
      case 'redacted_thinking':
        content.push({ type: 'redacted_thinking', data: block.data, ...sourceOf(block.source) });
        break;
      case 'tool_use':
        if (!block.open) {
          const signature = block.signature === undefined ? {} : { signature: block.signature };
          content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input, ...signature });
        }
        break;
    }
  }
  return { role: 'assistant', content };
}

/** Absent stays absent, so Anthropic messages keep exactly their old shape. */
function sourceOf(source: ThinkingSource | undefined): { source?: ThinkingSource } {
  return source === undefined ? {} : { source };
}

/** The index of the block that is currently open, or undefined. */
export function openBlockIndex(state: AccumulatorState): number | undefined {
  const i = state.blocks.findIndex((b) => b.open);
  return i === -1 ? undefined : i;
}

function startBlock(state: AccumulatorState, index: number, block: BlockState): AccumulatorState {
  if (index !== state.blocks.length) {
    throw new AccumulateError(
      index < state.blocks.length
        ? `block ${index} started twice`
        : `block ${index} started but the next index is ${state.blocks.length}`,
    );
  }
  // Anthropic streams blocks strictly one after another; overlapping blocks mean a broken stream.
  const open = openBlockIndex(state);
  if (open !== undefined) throw new AccumulateError(`block ${index} started while block ${open} is still open`);
  return { ...state, blocks: [...state.blocks, block] };
}

function openBlock(state: AccumulatorState, index: number, what: string): BlockState {
  const block = state.blocks[index];
  if (block === undefined) throw new AccumulateError(`${what} for block ${index}, which was never started`);
  if (!block.open) throw new AccumulateError(`${what} for block ${index}, which already ended`);
  return block;
}

function replaceBlock(state: AccumulatorState, index: number, block: BlockState): AccumulatorState {
  const blocks = state.blocks.slice();
  blocks[index] = block;
  return { ...state, blocks };
}

function wrongKind(what: string, index: number, kind: BlockState['kind']): AccumulateError {
  return new AccumulateError(`${what} for block ${index}, which is a ${kind} block`);
}

function parseToolInput(json: string, name: string): unknown {
  // The API streams no fragment at all for a call without arguments.
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new AccumulateError(`tool call ${name} has invalid input JSON: ${clip(json)}`);
  }
}

function clip(s: string): string {
  const oneLine = s.replace(/\s+/g, ' ');
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}
