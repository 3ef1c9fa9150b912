/**
 * A scripted reply as Gemini's `streamGenerateContent?alt=sse` sends it, byte
 * for byte: `data: {…}\r\n\r\n` per chunk, each a whole
 * `GenerateContentResponse` with the usage so far; thought parts flagged
 * `thought: true` with a `thoughtSignature`; each function call whole in one
 * part (no id, as the Gemini API sends them) with its own signature; the last
 * chunk carries the `finishReason`.
 */
import type { FakeReply } from './fake-anthropic-script.ts';
import { promptTokens, stopOf, textPieces, waitFrames, type WireFrame } from './fake-wire.ts';

/** The signature the fake puts on a function call, so tests can check it comes back. */
export function fakeCallSignature(name: string, index: number): string {
  return `Cg${Buffer.from(`fc:${name}:${index}`).toString('base64')}`;
}

export function geminiFrames(reply: FakeReply, model: string, n: number): WireFrame[] {
  const u = reply.usage;
  let outputSoFar = 0;
  const chunk = (parts: Record<string, unknown>[], finishReason?: string): Record<string, unknown> => {
    const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
    if (finishReason !== undefined) candidate['finishReason'] = finishReason;
    const output = finishReason === undefined ? Math.min(++outputSoFar, u.output) : u.output;
    return {
      candidates: [candidate],
      usageMetadata: {
        promptTokenCount: promptTokens(u),
        candidatesTokenCount: output,
        totalTokenCount: promptTokens(u) + output,
        ...(u.cacheRead > 0 ? { cachedContentTokenCount: u.cacheRead } : {}),
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens(u) }],
      },
      modelVersion: reply.model ?? model,
      responseId: `fakeResp${String(n).padStart(6, '0')}`,
    };
  };
  // Chunks are built first and written last, so the final one can carry the finish reason.
  const items: ({ chunk: Record<string, unknown> } | { delayMs: number } | { ping: true })[] = [];
  let calls = 0;
  for (const step of reply.steps) {
    switch (step.type) {
      case 'text':
        textPieces(step.text, step.chunkSize).forEach((text, i) => {
          if (i > 0 && step.delayMs !== undefined && step.delayMs > 0) items.push({ delayMs: step.delayMs });
          items.push({ chunk: chunk([{ text }]) });
        });
        break;
      case 'thinking': {
        const pieces = textPieces(step.thinking, step.chunkSize);
        pieces.forEach((text, i) => {
          if (i > 0 && step.delayMs !== undefined && step.delayMs > 0) items.push({ delayMs: step.delayMs });
          const last = i === pieces.length - 1;
          items.push({ chunk: chunk([{ text, thought: true, ...(last ? { thoughtSignature: step.signature } : {}) }]) });
        });
        break;
      }
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        const args: unknown = JSON.parse(step.json);
        items.push({ chunk: chunk([{ functionCall: { name: step.name, args }, thoughtSignature: fakeCallSignature(step.name, calls++) }]) });
        break;
      }
      case 'wait':
        for (const f of waitFrames(step.ms, undefined, { text: '' })) if ('delayMs' in f) items.push(f);
        break;
    }
  }
  const ending = reply.ending;
  if (ending.type === 'complete') {
    const stop = stopOf(reply);
    const finish = stop === 'max_tokens' ? 'MAX_TOKENS' : stop === 'refusal' ? 'SAFETY' : 'STOP';
    const lastItem = items.at(-1);
    const lastChunk = lastItem !== undefined && 'chunk' in lastItem ? lastItem : undefined;
    if (lastChunk === undefined) items.push({ chunk: chunk([{ text: '' }], finish) });
    else {
      const parts = ((lastChunk.chunk['candidates'] as Record<string, unknown>[])[0]!['content'] as { parts: Record<string, unknown>[] }).parts;
      lastChunk.chunk = chunk(parts, finish);
    }
  }
  const frames: WireFrame[] = items.flatMap((i): WireFrame[] =>
    'chunk' in i ? [{ text: `data: ${JSON.stringify(i.chunk)}\r\n\r\n` }] : 'delayMs' in i ? [i] : [],
  );
  if (ending.type === 'stream_error') {
    const overloaded = ending.errorType === 'overloaded_error';
    frames.push({
      text: `data: ${JSON.stringify({ error: { code: overloaded ? 503 : 500, message: ending.message, status: overloaded ? 'UNAVAILABLE' : 'INTERNAL' } })}\r\n\r\n`,
    });
  }
  return frames;
}

/** Google's status names for HTTP codes, as in its error bodies. */
export function googleStatus(status: number): string {
  const names: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
  };
  return names[status] ?? 'UNKNOWN';
}
