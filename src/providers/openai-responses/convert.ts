/**
 * Neutral request → Responses API body. Pure. Stateless on purpose
 * (`store: false`): the whole history goes with every request, as Codex
 * sends it, and reasoning travels as the encrypted items the API returned
 * (their ids are left out: with `store: false` the API cannot look them up).
 */
import type { ImagePart, Message, TextPart } from '../messages.ts';
import type { ProviderRequest } from '../types.ts';

type InputContent = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string };
export type ResponseInputItem =
  | { role: 'user'; content: InputContent[] }
  | { type: 'message'; role: 'assistant'; content: { type: 'output_text'; text: string }[] }
  | { type: 'reasoning'; summary: { type: 'summary_text'; text: string }[]; encrypted_content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | InputContent[] };

/** Reasoning models take `reasoning`; others refuse it. The catalogue says which is which. */
export interface ResponsesOptions {
  reasoning: boolean;
}

export function toResponsesBody(request: ProviderRequest, o: ResponsesOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    input: request.messages.flatMap(toItems),
    stream: true,
    store: false,
    max_output_tokens: request.maxTokens,
  };
  if (request.system !== '') body['instructions'] = request.system;
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: { type: 'object', ...t.inputSchema },
      strict: false,
    }));
    body['parallel_tool_calls'] = true;
  }
  if (o.reasoning) {
    body['reasoning'] = { effort: effortFor(request.thinkingBudget), summary: 'auto' };
    body['include'] = ['reasoning.encrypted_content'];
  }
  return body;
}

/** moat's thinking budget (tokens) as OpenAI's effort levels; no budget keeps the API's default, medium. */
export function effortFor(budget: number | undefined): 'low' | 'medium' | 'high' {
  if (budget === undefined) return 'medium';
  if (budget < 4096) return 'low';
  return budget < 16_384 ? 'medium' : 'high';
}

function toItems(message: Message): ResponseInputItem[] {
  if (message.role === 'user') {
    const items: ResponseInputItem[] = [];
    const rest: (TextPart | ImagePart)[] = [];
    for (const part of message.content) {
      if (part.type !== 'tool_result') {
        rest.push(part);
        continue;
      }
      const onlyText = part.content.every((c) => c.type === 'text');
      const prefix = part.isError ? 'Error: ' : '';
      items.push({
        type: 'function_call_output',
        call_id: part.toolUseId,
        output: onlyText ? prefix + part.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') : part.content.map(inputContent),
      });
    }
    if (rest.length > 0) items.push({ role: 'user', content: rest.map(inputContent) });
    return items;
  }
  const items: ResponseInputItem[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: part.text }] });
        break;
      case 'thinking':
        // Only this API's own encrypted reasoning can go back; anything else is dropped.
        if (part.source === 'openai-responses' && part.signature !== '') {
          items.push({
            type: 'reasoning',
            summary: part.thinking === '' ? [] : [{ type: 'summary_text', text: part.thinking }],
            encrypted_content: part.signature,
          });
        }
        break;
      case 'redacted_thinking':
        break;
      case 'tool_use':
        items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
        break;
    }
  }
  return items;
}

function inputContent(part: TextPart | ImagePart): InputContent {
  return part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : { type: 'input_image', image_url: `data:${part.mediaType};base64,${part.data}` };
}
