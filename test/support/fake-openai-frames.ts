/**
 * A scripted reply as OpenAI's two streaming formats send it, byte for byte:
 * Chat Completions chunks (`data: {…}\n\n` … `data: [DONE]`, with the quirks
 * of other OpenAI-compatible servers on request) and Responses API events
 * (`event: response.…\ndata: {…}\n\n`, sequence numbers, items added and done).
 */
import type { FakeReply, FakeStep } from './fake-anthropic-script.ts';
import { callId, paced, promptTokens, stopOf, textPieces, toolPieces, waitFrames, type WireFrame } from './fake-wire.ts';

const CREATED = 1_764_000_000;

const data = (payload: unknown): WireFrame => ({ text: `data: ${JSON.stringify(payload)}\n\n` });

// ── Chat Completions ─────────────────────────────────────────────────────

export function chatFrames(reply: FakeReply, model: string, n: number): WireFrame[] {
  const q = reply.chat ?? {};
  const withUsage = q.noUsage !== true;
  const chunk = (choice: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}): WireFrame =>
    data({
      id: `chatcmpl-fake${String(n).padStart(6, '0')}`,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: reply.model ?? model,
      system_fingerprint: 'fp_fake',
      choices: choice === undefined ? [] : [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
      ...(withUsage ? { usage: null } : {}),
      ...extra,
    });
  const frames: WireFrame[] = [chunk({ delta: { role: 'assistant', content: '', refusal: null } })];
  const reasoningField = q.reasoningField ?? 'reasoning_content';
  let calls: Extract<FakeStep, { type: 'tool_use' }>[] = [];
  let callIndex = 0;
  const flushCalls = (): void => {
    frames.push(...toolCallFrames(calls, callIndex, q, (delta) => chunk({ delta })));
    callIndex += calls.length;
    calls = [];
  };
  for (const step of reply.steps) {
    if (step.type === 'tool_use') {
      calls.push(step);
      continue;
    }
    flushCalls();
    switch (step.type) {
      case 'text':
        frames.push(...paced(textPieces(step.text, step.chunkSize).map((piece) => chunk({ delta: q.refusal === true ? { refusal: piece } : { content: piece } })), step.delayMs));
        break;
      case 'thinking':
        frames.push(...paced(textPieces(step.thinking, step.chunkSize).map((r) => chunk({ delta: { [reasoningField]: r } })), step.delayMs));
        break;
      case 'redacted_thinking':
        break;
      case 'wait':
        frames.push(...waitFrames(step.ms, step.pingEveryMs, { text: ': keep-alive\n\n' }));
        break;
    }
  }
  flushCalls();
  const ending = reply.ending;
  if (ending.type === 'stream_error') {
    frames.push(data({ error: { message: ending.message, type: 'server_error', param: null, code: openaiCode(ending.errorType) } }));
    return frames;
  }
  if (ending.type !== 'complete') return frames;
  const stop = stopOf(reply);
  if (q.finishReason !== 'absent') {
    const finish =
      stop === 'tool_use'
        ? q.finishReason === 'stop'
          ? 'stop'
          : 'tool_calls'
        : stop === 'max_tokens'
          ? 'length'
          : stop === 'refusal' && q.refusal !== true
            ? 'content_filter'
            : 'stop';
    frames.push(chunk({ delta: {}, finish_reason: finish }));
  }
  if (withUsage) {
    const u = reply.usage;
    frames.push(
      chunk(undefined, {
        usage: {
          prompt_tokens: promptTokens(u),
          completion_tokens: u.output,
          total_tokens: promptTokens(u) + u.output,
          prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
      }),
    );
  }
  if (q.noDone !== true) frames.push({ text: 'data: [DONE]\n\n' });
  return frames;
}

/** `delta.tool_calls` chunks: the first names the call (id, name, empty arguments), the rest carry argument fragments. */
function toolCallFrames(
  calls: Extract<FakeStep, { type: 'tool_use' }>[],
  first: number,
  q: NonNullable<FakeReply['chat']>,
  chunk: (delta: Record<string, unknown>) => WireFrame,
): WireFrame[] {
  const head = (step: Extract<FakeStep, { type: 'tool_use' }>, index: number, args: string) => ({
    index,
    ...(q.noIds === true ? {} : { id: callId(step.id) }),
    type: 'function',
    function: { name: step.name, arguments: args },
  });
  const piece = (index: number, args: string) => ({ index, function: { arguments: args } });
  const perCall = calls.map((step, i) => {
    const index = first + i;
    if (q.wholeArguments === true) return [chunk({ tool_calls: [head(step, index, step.json)] })];
    return paced([chunk({ tool_calls: [head(step, index, '')] }), ...toolPieces(step).map((p) => chunk({ tool_calls: [piece(index, p)] }))], step.delayMs);
  });
  if (q.interleave !== true) return perCall.flat();
  // Round-robin: call 0's first frame, call 1's first frame, call 0's second…
  const out: WireFrame[] = [];
  for (let i = 0; perCall.some((f) => i < f.length); i++) for (const f of perCall) if (i < f.length) out.push(f[i]!);
  return out;
}

function openaiCode(errorType: string): string {
  return errorType === 'overloaded_error' ? 'server_is_overloaded' : errorType === 'rate_limit_error' ? 'rate_limit_exceeded' : 'server_error';
}

// ── Responses API ────────────────────────────────────────────────────────

export function responsesFrames(reply: FakeReply, model: string, n: number): WireFrame[] {
  let seq = 0;
  const ev = (type: string, payload: Record<string, unknown>): WireFrame => ({
    text: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...payload })}\n\n`,
  });
  const id = `resp_fake${String(n).padStart(6, '0')}`;
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
    id,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: reply.model ?? model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
    ...extra,
  });
  const frames: WireFrame[] = [ev('response.created', { response: response('in_progress', []) }), ev('response.in_progress', { response: response('in_progress', []) })];
  const output: unknown[] = [];
  let lastDone = -1;
  reply.steps.forEach((step, i) => {
    const output_index = output.length;
    const itemId = (prefix: string) => `${prefix}_fake${String(n).padStart(4, '0')}${String(i).padStart(3, '0')}`;
    switch (step.type) {
      case 'wait':
        frames.push(...waitFrames(step.ms, step.pingEveryMs, { text: ': keep-alive\n\n' }));
        return;
      case 'thinking':
      case 'redacted_thinking': {
        const item_id = itemId('rs');
        const text = step.type === 'thinking' ? step.thinking : '';
        const encrypted = step.type === 'thinking' ? step.signature : step.data;
        frames.push(ev('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } }));
        if (text !== '') {
          const part = { type: 'summary_text', text: '' };
          frames.push(ev('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part }));
          const pieces = textPieces(text, step.type === 'thinking' ? step.chunkSize : undefined);
          frames.push(...paced(pieces.map((delta) => ev('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta, obfuscation: 'x' })), step.type === 'thinking' ? step.delayMs : undefined));
          frames.push(ev('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text }));
          frames.push(ev('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text } }));
        }
        const item = { id: item_id, type: 'reasoning', encrypted_content: encrypted, summary: text === '' ? [] : [{ type: 'summary_text', text }] };
        lastDone = frames.length;
        frames.push(ev('response.output_item.done', { output_index, item }));
        output.push(item);
        return;
      }
      case 'text': {
        const item_id = itemId('msg');
        frames.push(ev('response.output_item.added', { output_index, item: { id: item_id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } }));
        frames.push(ev('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } }));
        const pieces = textPieces(step.text, step.chunkSize);
        frames.push(...paced(pieces.map((delta) => ev('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [], obfuscation: 'x' })), step.delayMs));
        const part = { type: 'output_text', annotations: [], logprobs: [], text: step.text };
        frames.push(ev('response.output_text.done', { item_id, output_index, content_index: 0, text: step.text, logprobs: [] }));
        frames.push(ev('response.content_part.done', { item_id, output_index, content_index: 0, part }));
        const item = { id: item_id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
        lastDone = frames.length;
        frames.push(ev('response.output_item.done', { output_index, item }));
        output.push(item);
        return;
      }
      case 'tool_use': {
        const item_id = itemId('fc');
        const call_id = callId(step.id);
        frames.push(ev('response.output_item.added', { output_index, item: { id: item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id, name: step.name } }));
        frames.push(...paced(toolPieces(step).map((delta) => ev('response.function_call_arguments.delta', { item_id, output_index, delta, obfuscation: 'x' })), step.delayMs));
        frames.push(ev('response.function_call_arguments.done', { item_id, output_index, arguments: step.json }));
        const item = { id: item_id, type: 'function_call', status: 'completed', arguments: step.json, call_id, name: step.name };
        lastDone = frames.length;
        frames.push(ev('response.output_item.done', { output_index, item }));
        output.push(item);
        return;
      }
    }
  });
  const ending = reply.ending;
  if (ending.type !== 'complete') {
    // A failure mid-stream: the last item never finishes.
    if (lastDone !== -1) frames.splice(lastDone, 1);
    if (ending.type === 'stream_error') {
      frames.push(ev('response.failed', { response: response('failed', output, { error: { code: openaiCode(ending.errorType), message: ending.message } }) }));
    }
    return frames;
  }
  const u = reply.usage;
  const usage = {
    input_tokens: promptTokens(u),
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: promptTokens(u) + u.output,
  };
  if (stopOf(reply) === 'max_tokens' || stopOf(reply) === 'refusal') {
    const reason = stopOf(reply) === 'refusal' ? 'content_filter' : 'max_output_tokens';
    frames.push(ev('response.incomplete', { response: response('incomplete', output, { usage, incomplete_details: { reason } }) }));
  } else {
    frames.push(ev('response.completed', { response: response('completed', output, { usage }) }));
  }
  return frames;
}
