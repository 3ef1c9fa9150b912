/**
 * `GenerateContentResponse` chunks → neutral events. Gemini streams whole
 * parts: text and thought text in pieces, each function call complete in one
 * part (arguments as an object, often without an id). Thought signatures sit
 * on thought parts and on function calls; both are kept. The chunk with a
 * `finishReason` ends the message.
 */
import type { GenerateContentResponse, Part } from '@google/genai';
import type { FrameMapper, MappedFrame } from '../drive-stream.ts';
import { ZERO_USAGE, type StopReason, type Usage } from '../messages.ts';
import type { ProviderEvent } from '../types.ts';

type Open = { kind: 'text' | 'thinking'; index: number } | undefined;

let idCounter = 0;

export class GeminiMapper implements FrameMapper<GenerateContentResponse> {
  usage: Usage = ZERO_USAGE;
  private started = false;
  private open: Open;
  private next = 0;
  private sawCall = false;
  private out: ProviderEvent[] = [];

  constructor(private readonly requestedModel: string) {}

  map(chunk: GenerateContentResponse): MappedFrame {
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'message_start', model: chunk.modelVersion ?? this.requestedModel, usage: ZERO_USAGE });
    }
    const u = chunk.usageMetadata;
    if (u !== undefined) {
      const cached = u.cachedContentTokenCount ?? 0;
      this.usage = {
        inputTokens: Math.max(0, (u.promptTokenCount ?? 0) - cached),
        // Thinking is billed as output.
        outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: cached,
      };
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.part(part);
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked !== undefined && candidate === undefined) return this.finish('refusal');
    const finish = candidate?.finishReason;
    if (finish === undefined) return { events: this.take() };
    switch (finish) {
      case 'STOP':
        return this.finish(this.sawCall ? 'tool_use' : 'end_turn');
      case 'MAX_TOKENS':
        return this.finish('max_tokens');
      case 'MALFORMED_FUNCTION_CALL':
      case 'UNEXPECTED_TOOL_CALL':
        // The model garbled a call; asking again usually works, so it is a retryable stream failure.
        this.close();
        return {
          events: this.take(),
          error: { kind: 'stream', message: `Gemini API: the model produced an unusable function call (${finish}).` },
        };
      case 'SAFETY':
      case 'RECITATION':
      case 'BLOCKLIST':
      case 'PROHIBITED_CONTENT':
      case 'SPII':
      case 'IMAGE_SAFETY':
      case 'IMAGE_PROHIBITED_CONTENT':
        return this.finish('refusal');
      default:
        return this.finish(this.sawCall ? 'tool_use' : 'end_turn');
    }
  }

  end(): MappedFrame {
    return { events: this.take() };
  }

  private part(part: Part): void {
    if (part.functionCall !== undefined) {
      const call = part.functionCall;
      if (call.name === undefined || call.name === '') throw new Error('a function call without a name');
      this.close();
      this.sawCall = true;
      const index = this.next++;
      const id = call.id !== undefined && call.id !== '' ? call.id : `call_moat_g${(++idCounter).toString(36)}`;
      this.out.push(
        { type: 'tool_use_start', index, id, name: call.name, ...(part.thoughtSignature === undefined ? {} : { signature: part.thoughtSignature }) },
        { type: 'tool_use_delta', index, partialJson: JSON.stringify(call.args ?? {}) },
        { type: 'block_end', index },
      );
      return;
    }
    if (typeof part.text !== 'string') return;
    const kind = part.thought === true ? 'thinking' : 'text';
    // The closing chunk often carries an empty text part; it is no block of its own.
    if (part.text === '' && part.thoughtSignature === undefined && this.open?.kind !== kind) return;
    if (this.open?.kind !== kind) {
      this.close();
      const index = this.next++;
      this.open = { kind, index };
      this.out.push(kind === 'thinking' ? { type: 'thinking_start', index, source: 'gemini' } : { type: 'text_start', index });
    }
    const index = this.open.index;
    if (part.text !== '') {
      this.out.push(kind === 'thinking' ? { type: 'thinking_delta', index, thinking: part.text } : { type: 'text_delta', index, text: part.text });
    }
    if (kind === 'thinking' && part.thoughtSignature !== undefined) {
      this.out.push({ type: 'thinking_signature', index, signature: part.thoughtSignature });
    }
  }

  private close(): void {
    if (this.open === undefined) return;
    this.out.push({ type: 'block_end', index: this.open.index });
    this.open = undefined;
  }

  private finish(stop: StopReason): MappedFrame {
    this.close();
    this.out.push({ type: 'usage', usage: this.usage });
    return { events: this.take(), stop };
  }

  private take(): ProviderEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }
}
