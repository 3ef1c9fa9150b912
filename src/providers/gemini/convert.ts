/**
 * Neutral request → `generateContent` parameters for `@google/genai`. Pure.
 * Function responses are matched to their calls by name (and id), so the
 * name of each call is looked up in the history. Thought signatures go back
 * on the parts that carried them; a function call from another vendor's
 * history has none, and gets the value Google documents for that case.
 */
import type { Content, GenerateContentConfig, Part } from '@google/genai';
import type { ImagePart, Message, TextPart } from '../messages.ts';
import type { ProviderRequest } from '../types.ts';

/** Google's documented stand-in for a function call whose thought signature is unknown (history from another model). */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

export interface GeminiParams {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

/** Thinking models take a thinking config; the others answer 400 to any ("Thinking is not enabled for models/…"). */
export interface GeminiOptions {
  reasoning: boolean;
}

export function toGeminiParams(request: ProviderRequest, signal: AbortSignal, o: GeminiOptions): GeminiParams {
  const names = new Map<string, string>();
  const contents = request.messages.map((m) => toContent(m, names));
  const config: GenerateContentConfig = {
    maxOutputTokens: request.maxTokens,
    abortSignal: signal,
    // moat runs the tools and decides on retries; the SDK must do neither.
    automaticFunctionCalling: { disable: true },
    automaticContinuation: false,
  };
  if (o.reasoning) {
    // -1 (the model decides) when moat sets no budget: Flash-Lite thinks only when asked to, and
    // refuses includeThoughts while its thinking is off.
    config.thinkingConfig = { includeThoughts: true, thinkingBudget: request.thinkingBudget ?? -1 };
  }
  if (request.system !== '') config.systemInstruction = request.system;
  if (request.tools.length > 0) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: { type: 'object', ...t.inputSchema },
        })),
      },
    ];
  }
  return { model: request.model, contents, config };
}

function toContent(message: Message, names: Map<string, string>): Content {
  if (message.role === 'user') {
    const parts: Part[] = [];
    for (const part of message.content) {
      if (part.type !== 'tool_result') {
        parts.push(dataPart(part));
        continue;
      }
      const text = part.content
        .filter((c): c is TextPart => c.type === 'text')
        .map((c) => c.text)
        .join('\n');
      parts.push({
        functionResponse: {
          id: part.toolUseId,
          name: names.get(part.toolUseId) ?? 'unknown',
          response: part.isError ? { error: text } : { output: text },
        },
      });
      for (const c of part.content) if (c.type === 'image') parts.push(dataPart(c));
    }
    return { role: 'user', parts };
  }
  const parts: Part[] = [];
  let firstCall = true;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') parts.push({ text: part.text });
        break;
      case 'thinking':
        if (part.source === 'gemini') {
          parts.push({ text: part.thinking, thought: true, ...(part.signature === '' ? {} : { thoughtSignature: part.signature }) });
        }
        break;
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        names.set(part.id, part.name);
        // The API checks the signature of the first call in each model turn.
        const signature = part.signature ?? (firstCall ? SKIP_SIGNATURE : undefined);
        firstCall = false;
        parts.push({
          functionCall: { id: part.id, name: part.name, args: isObject(part.input) ? part.input : {} },
          ...(signature === undefined ? {} : { thoughtSignature: signature }),
        });
        break;
      }
    }
  }
  if (parts.length === 0) parts.push({ text: '' });
  return { role: 'model', parts };
}

function dataPart(part: TextPart | ImagePart): Part {
  return part.type === 'text' ? { text: part.text } : { inlineData: { mimeType: part.mediaType, data: part.data } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
