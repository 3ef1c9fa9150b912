/**
 * Chat Completions chunks → neutral events, tolerant of what real
 * OpenAI-compatible servers send: tool calls assembled by `index` (id and
 * name often only in the first fragment, several calls interleaved, arguments
 * in fragments or as one whole string or even an object), ids missing,
 * `finish_reason` absent or `"stop"` although tools were called, no usage,
 * `reasoning_content` / `reasoning` deltas, a body that ends without
 * `[DONE]` after the finish reason. OpenAI's `delta.refusal` is text the
 * user should see, and the message stops as a refusal.
 *
 * The neutral stream has one open block at a time. Text and reasoning stream
 * live; a tool call streams live while it is the only one receiving
 * fragments, and when fragments for another call arrive the open call is
 * closed if its arguments are complete JSON, else the newcomer is buffered
 * and emitted whole at the end.
 */
import type { ServerSentEvent } from 'openai/core/streaming';
import type { FrameMapper, MappedFrame } from '../drive-stream.ts';
import { COMPATIBLE_API, isRecord } from '../failure.ts';
import { ZERO_USAGE, type StopReason, type Usage } from '../messages.ts';
import { inBandError } from '../openai-client.ts';
import type { ProviderEvent } from '../types.ts';

interface Call {
  id: string;
  name: string;
  args: string;
  /** Neutral block index once emitted as a block. */
  block: number | undefined;
  done: boolean;
}

type Open = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: Call } | undefined;

const API = COMPATIBLE_API;
let idCounter = 0;

export class ChunkMapper implements FrameMapper<ServerSentEvent> {
  usage: Usage = ZERO_USAGE;
  private started = false;
  private open: Open;
  private next = 0;
  private readonly calls = new Map<number, Call>();
  private finishReason: string | undefined;
  /** Text that arrived while a tool call was open; emitted after the calls. */
  private trailing = '';
  /** `delta.refusal` came: OpenAI ends it with finish_reason "stop", but it is a refusal. */
  private refused = false;
  private out: ProviderEvent[] = [];

  constructor(private readonly requestedModel: string) {}

  map(sse: ServerSentEvent): MappedFrame {
    const data = sse.data;
    if (data === '[DONE]') return this.finish();
    // Comments and keep-alives arrive as events with no data.
    if (data === '') return { events: [] };
    const chunk: unknown = JSON.parse(data);
    if (!isRecord(chunk)) throw new Error('a chunk that is not a JSON object');
    if (chunk['error'] !== undefined) return { events: this.take(), error: inBandError(API, chunk['error']) };
    if (!this.started) this.start(typeof chunk['model'] === 'string' && chunk['model'] !== '' ? chunk['model'] : this.requestedModel);
    const usage = chunk['usage'];
    if (isRecord(usage)) this.setUsage(usage);
    const choices = chunk['choices'];
    if (Array.isArray(choices)) {
      for (const choice of choices) {
        if (!isRecord(choice) || (choice['index'] !== undefined && choice['index'] !== 0)) continue;
        const delta = choice['delta'];
        if (isRecord(delta)) this.delta(delta);
        const finish = choice['finish_reason'];
        if (typeof finish === 'string' && finish !== '') this.finishReason = finish;
      }
    }
    return { events: this.take() };
  }

  end(): MappedFrame {
    // Some servers close the body after the finish reason without `[DONE]`; that is a whole answer.
    if (this.finishReason !== undefined) return this.finish();
    return { events: this.take() };
  }

  private start(model: string): void {
    this.started = true;
    this.out.push({ type: 'message_start', model, usage: ZERO_USAGE });
  }

  private delta(delta: Record<string, unknown>): void {
    const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
    if (typeof reasoning === 'string' && reasoning !== '') this.thinking(reasoning);
    const content = delta['content'];
    if (typeof content === 'string' && content !== '') this.text(content);
    const refusal = delta['refusal'];
    if (typeof refusal === 'string' && refusal !== '') {
      this.refused = true;
      this.text(refusal);
    }
    const calls = delta['tool_calls'];
    if (Array.isArray(calls)) {
      calls.forEach((c: unknown) => {
        if (isRecord(c)) this.toolFragment(c);
      });
    }
  }

  private text(text: string): void {
    const open = this.open;
    if (open?.kind === 'text') {
      this.out.push({ type: 'text_delta', index: open.index, text });
      return;
    }
    if (open?.kind === 'tool') {
      this.trailing += text;
      return;
    }
    this.close();
    const index = this.next++;
    this.open = { kind: 'text', index };
    this.out.push({ type: 'text_start', index }, { type: 'text_delta', index, text });
  }

  private thinking(thinking: string): void {
    const open = this.open;
    if (open?.kind === 'thinking') {
      this.out.push({ type: 'thinking_delta', index: open.index, thinking });
      return;
    }
    // Reasoning after a tool call has begun has no place in the message; servers do not send it.
    if (open?.kind === 'tool') return;
    this.close();
    const index = this.next++;
    this.open = { kind: 'thinking', index };
    this.out.push({ type: 'thinking_start', index, source: 'openai-chat' }, { type: 'thinking_delta', index, thinking });
  }

  private toolFragment(c: Record<string, unknown>): void {
    const key = typeof c['index'] === 'number' ? c['index'] : this.keyWithoutIndex(c);
    const fn = isRecord(c['function']) ? c['function'] : {};
    const id = typeof c['id'] === 'string' && c['id'] !== '' ? c['id'] : undefined;
    const name = typeof fn['name'] === 'string' && fn['name'] !== '' ? fn['name'] : undefined;
    const raw = fn['arguments'];
    const args = typeof raw === 'string' ? raw : isRecord(raw) ? JSON.stringify(raw) : '';
    let call = this.calls.get(key);
    if (call === undefined) {
      call = { id: id ?? `call_moat_${(++idCounter).toString(36)}`, name: name ?? '', args: '', block: undefined, done: false };
      this.calls.set(key, call);
    } else {
      // Ids and names come once; a server that repeats them sends the same values.
      if (id !== undefined && call.block === undefined) call.id = id;
      if (name !== undefined && call.name === '') call.name = name;
    }
    if (call.done) return; // Whitespace after a call's complete arguments.
    const open = this.open;
    if (open?.kind === 'tool' && open.call === call) {
      call.args += args;
      if (args !== '') this.out.push({ type: 'tool_use_delta', index: open.index, partialJson: args });
      return;
    }
    call.args += args;
    if (call.name === '') return; // Cannot start a block without a name; emitted once it comes or at the end.
    if (open?.kind === 'tool' && !complete(open.call.args)) return; // Interleaved: emitted whole at the end.
    this.close();
    this.startCall(call);
  }

  /** Servers that leave out `index`: the fragment with an id starts a call; the rest continue the last one. */
  private keyWithoutIndex(c: Record<string, unknown>): number {
    const last = this.calls.size - 1;
    if (typeof c['id'] === 'string' && c['id'] !== '') {
      for (const [k, call] of this.calls) if (call.id === c['id']) return k;
      return this.calls.size;
    }
    return Math.max(last, 0);
  }

  private startCall(call: Call): void {
    const index = this.next++;
    call.block = index;
    this.open = { kind: 'tool', index, call };
    this.out.push({ type: 'tool_use_start', index, id: call.id, name: call.name });
    if (call.args !== '') this.out.push({ type: 'tool_use_delta', index, partialJson: call.args });
  }

  private close(): void {
    const open = this.open;
    if (open === undefined) return;
    if (open.kind === 'tool') open.call.done = true;
    this.out.push({ type: 'block_end', index: open.index });
    this.open = undefined;
  }

  private finish(): MappedFrame {
    if (!this.started) this.start(this.requestedModel);
    this.close();
    for (const call of this.calls.values()) {
      if (call.block !== undefined) continue;
      if (call.name === '') throw new Error('a tool call without a name');
      this.startCall(call);
      this.close();
    }
    if (this.trailing !== '') {
      const index = this.next++;
      this.out.push({ type: 'text_start', index }, { type: 'text_delta', index, text: this.trailing }, { type: 'block_end', index });
      this.trailing = '';
    }
    this.out.push({ type: 'usage', usage: this.usage });
    return { events: this.take(), stop: this.stopReason() };
  }

  private stopReason(): StopReason {
    switch (this.finishReason) {
      case 'length':
        return 'max_tokens';
      case 'content_filter':
        return 'refusal';
      default:
        // "stop" with tool calls present (several servers) still means the model wants them run.
        return this.calls.size > 0 ? 'tool_use' : this.refused ? 'refusal' : 'end_turn';
    }
  }

  private setUsage(u: Record<string, unknown>): void {
    const prompt = num(u['prompt_tokens']);
    const details = isRecord(u['prompt_tokens_details']) ? u['prompt_tokens_details'] : {};
    const cached = num(details['cached_tokens'] ?? u['cached_tokens']);
    this.usage = {
      // Neutral usage counts cache reads apart from fresh input, as Anthropic's does.
      inputTokens: Math.max(0, prompt - cached),
      outputTokens: num(u['completion_tokens']),
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: cached,
    };
  }

  private take(): ProviderEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** True when `json` is a whole JSON value (a call's arguments have all arrived). */
function complete(json: string): boolean {
  if (json.trim() === '') return false;
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}
