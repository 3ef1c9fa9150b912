/**
 * Responses API stream events → neutral events. Output items arrive one
 * after another (`output_item.added` … `output_item.done`), so each item is
 * one neutral block: `reasoning` → thinking (its summary as the text, its
 * encrypted content as the signature), `message` → text, `function_call` →
 * tool use keyed by `call_id`. The response ends with `response.completed`,
 * `response.incomplete` or `response.failed`.
 */
import type { ServerSentEvent } from 'openai/core/streaming';
import type { FrameMapper, MappedFrame } from '../drive-stream.ts';
import { isRecord } from '../failure.ts';
import { ZERO_USAGE, type StopReason, type Usage } from '../messages.ts';
import { inBandError } from '../openai-client.ts';
import type { ProviderEvent } from '../types.ts';

const API = 'OpenAI API';

interface OpenItem {
  index: number;
  kind: 'reasoning' | 'message' | 'function_call';
  /** Reasoning: summary parts seen (a blank line goes between them). Calls: argument bytes streamed. */
  count: number;
}

export class ResponsesMapper implements FrameMapper<ServerSentEvent> {
  usage: Usage = ZERO_USAGE;
  private started = false;
  private next = 0;
  /** By item id, and by output_index for servers that omit item ids on deltas. */
  private readonly items = new Map<string, OpenItem>();
  private readonly byOutput = new Map<number, OpenItem>();
  private sawCall = false;
  private refused = false;
  private out: ProviderEvent[] = [];

  constructor(private readonly requestedModel: string) {}

  map(sse: ServerSentEvent): MappedFrame {
    if (sse.data === '' || sse.data === '[DONE]') return { events: [] };
    const e: unknown = JSON.parse(sse.data);
    if (!isRecord(e)) throw new Error('an event that is not a JSON object');
    const type = typeof e['type'] === 'string' ? e['type'] : (sse.event ?? '');
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
        this.start(e['response']);
        break;
      case 'response.output_item.added':
        this.start(undefined);
        this.itemAdded(e);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        if (type === 'response.refusal.delta') this.refused = true;
        const item = this.itemOf(e, 'message');
        if (item && typeof e['delta'] === 'string' && e['delta'] !== '') this.out.push({ type: 'text_delta', index: item.index, text: e['delta'] });
        break;
      }
      case 'response.reasoning_summary_part.added': {
        const item = this.itemOf(e, 'reasoning');
        if (item && item.count++ > 0) this.out.push({ type: 'thinking_delta', index: item.index, thinking: '\n\n' });
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const item = this.itemOf(e, 'reasoning');
        if (item && typeof e['delta'] === 'string' && e['delta'] !== '') this.out.push({ type: 'thinking_delta', index: item.index, thinking: e['delta'] });
        break;
      }
      case 'response.function_call_arguments.delta': {
        const item = this.itemOf(e, 'function_call');
        if (item && typeof e['delta'] === 'string' && e['delta'] !== '') {
          item.count += e['delta'].length;
          this.out.push({ type: 'tool_use_delta', index: item.index, partialJson: e['delta'] });
        }
        break;
      }
      case 'response.output_item.done':
        this.itemDone(e);
        break;
      case 'response.completed':
      case 'response.incomplete':
        return this.complete(type, e['response']);
      case 'response.failed': {
        const response = isRecord(e['response']) ? e['response'] : {};
        this.setUsage(response['usage']);
        return { events: this.take(), error: inBandError(API, response['error']) };
      }
      case 'error':
        return { events: this.take(), error: inBandError(API, isRecord(e['error']) ? e['error'] : e) };
      default:
        // content_part.*, *.done echoes, web search and other events carry nothing more for us.
        break;
    }
    return { events: this.take() };
  }

  end(): MappedFrame {
    return { events: this.take() };
  }

  private start(response: unknown): void {
    if (this.started) return;
    this.started = true;
    const model = isRecord(response) && typeof response['model'] === 'string' ? response['model'] : this.requestedModel;
    this.out.push({ type: 'message_start', model, usage: ZERO_USAGE });
  }

  private itemAdded(e: Record<string, unknown>): void {
    const item = isRecord(e['item']) ? e['item'] : undefined;
    if (item === undefined) throw new Error('output_item.added without an item');
    const kind = item['type'];
    if (kind !== 'reasoning' && kind !== 'message' && kind !== 'function_call') return;
    const index = this.next++;
    const open: OpenItem = { index, kind, count: 0 };
    if (typeof item['id'] === 'string') this.items.set(item['id'], open);
    if (typeof e['output_index'] === 'number') this.byOutput.set(e['output_index'], open);
    if (kind === 'reasoning') this.out.push({ type: 'thinking_start', index, source: 'openai-responses' });
    else if (kind === 'message') this.out.push({ type: 'text_start', index });
    else {
      this.sawCall = true;
      const callId = typeof item['call_id'] === 'string' && item['call_id'] !== '' ? item['call_id'] : String(item['id'] ?? `call_${index}`);
      const name = typeof item['name'] === 'string' ? item['name'] : '';
      if (name === '') throw new Error('a function_call item without a name');
      this.out.push({ type: 'tool_use_start', index, id: callId, name });
    }
  }

  private itemDone(e: Record<string, unknown>): void {
    const item = isRecord(e['item']) ? e['item'] : {};
    const open = this.itemOf({ item_id: item['id'], output_index: e['output_index'] }, undefined);
    if (open === undefined) return;
    if (open.kind === 'reasoning') {
      const encrypted = item['encrypted_content'];
      if (typeof encrypted === 'string' && encrypted !== '') this.out.push({ type: 'thinking_signature', index: open.index, signature: encrypted });
    } else if (open.kind === 'function_call' && open.count === 0) {
      // Arguments that came only whole, in the finished item.
      const args = item['arguments'];
      if (typeof args === 'string' && args !== '') this.out.push({ type: 'tool_use_delta', index: open.index, partialJson: args });
    }
    this.out.push({ type: 'block_end', index: open.index });
    if (typeof item['id'] === 'string') this.items.delete(item['id']);
    if (typeof e['output_index'] === 'number') this.byOutput.delete(e['output_index']);
  }

  private itemOf(e: Record<string, unknown>, kind: OpenItem['kind'] | undefined): OpenItem | undefined {
    const byId = typeof e['item_id'] === 'string' ? this.items.get(e['item_id']) : undefined;
    const item = byId ?? (typeof e['output_index'] === 'number' ? this.byOutput.get(e['output_index']) : undefined);
    return item !== undefined && (kind === undefined || item.kind === kind) ? item : undefined;
  }

  private complete(type: string, response: unknown): MappedFrame {
    this.start(response);
    const r = isRecord(response) ? response : {};
    this.setUsage(r['usage']);
    this.out.push({ type: 'usage', usage: this.usage });
    let stop: StopReason = this.sawCall ? 'tool_use' : this.refused ? 'refusal' : 'end_turn';
    if (type === 'response.incomplete') {
      const details = isRecord(r['incomplete_details']) ? r['incomplete_details'] : {};
      stop = details['reason'] === 'content_filter' ? 'refusal' : 'max_tokens';
    }
    return { events: this.take(), stop };
  }

  private setUsage(u: unknown): void {
    if (!isRecord(u)) return;
    const details = isRecord(u['input_tokens_details']) ? u['input_tokens_details'] : {};
    const cached = num(details['cached_tokens']);
    this.usage = {
      inputTokens: Math.max(0, num(u['input_tokens']) - cached),
      // Reasoning tokens are part of output_tokens and billed as output.
      outputTokens: num(u['output_tokens']),
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
