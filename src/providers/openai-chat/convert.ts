/**
 * Neutral request → Chat Completions body. Pure. Written for the whole family
 * of OpenAI-compatible servers, so it sticks to what all of them accept: a
 * string `content` where there is only text, `max_tokens`, tool results as
 * `role: "tool"` messages right after the assistant message that called them.
 */
import type { ImagePart, Message, TextPart, UserMessage } from '../messages.ts';
import type { ToolCallRules } from '../provider-config.ts';
import type { ProviderRequest } from '../types.ts';
import { applyMistralRules } from './tool-call-rules.ts';

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatOptions {
  /** A server stricter than OpenAI about tool calls (provider-config.ts). */
  toolCallRules?: ToolCallRules;
}

export function toChatBody(request: ProviderRequest, o: ChatOptions = {}): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(...toChatMessages(message));
  const body: Record<string, unknown> = {
    model: request.model,
    messages: o.toolCallRules === 'mistral' ? applyMistralRules(messages) : messages,
    stream: true,
    // Without it the API sends no usage at all in a stream.
    stream_options: { include_usage: true },
    max_tokens: request.maxTokens,
  };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: { type: 'object', ...t.inputSchema } },
    }));
  }
  return body;
}

function toChatMessages(message: Message): ChatMessage[] {
  if (message.role === 'user') return userMessages(message);
  let text = '';
  const calls: ChatToolCall[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        text += part.text;
        break;
      case 'tool_use':
        calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } });
        break;
      case 'thinking':
      case 'redacted_thinking':
        // Servers that stream reasoning_content do not take it back (DeepSeek refuses it), and other vendors' is unreadable.
        break;
    }
  }
  if (calls.length === 0) return [{ role: 'assistant', content: text }];
  return [{ role: 'assistant', content: text === '' ? null : text, tool_calls: calls }];
}

/** Tool results first (they must follow the assistant's calls), then what the user said, images included. */
function userMessages(message: UserMessage): ChatMessage[] {
  const out: ChatMessage[] = [];
  const rest: (TextPart | ImagePart)[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool_result') {
      rest.push(part);
      continue;
    }
    const text = part.content
      .filter((c): c is TextPart => c.type === 'text')
      .map((c) => c.text)
      .join('\n');
    out.push({ role: 'tool', tool_call_id: part.toolUseId, content: part.isError ? `Error: ${text}` : text });
    // A tool message holds text only; its images follow as the user's.
    rest.push(...part.content.filter((c): c is ImagePart => c.type === 'image'));
  }
  if (rest.length > 0) out.push({ role: 'user', content: userContent(rest) });
  return out;
}

function userContent(parts: (TextPart | ImagePart)[]): string | ContentPart[] {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => p.text).join('\n\n');
  return parts.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.data}` } },
  );
}
