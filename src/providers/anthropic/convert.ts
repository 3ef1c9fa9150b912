/**
 * Neutral request → Anthropic Messages API body. Pure, so the exact wire shape
 * (cache breakpoints, thinking blocks sent back unchanged) is easy to test.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { AssistantPart, ImagePart, Message, TextPart, UserPart } from '../messages.ts';
import type { ProviderRequest, ToolSpec } from '../types.ts';

export const EPHEMERAL = { type: 'ephemeral' } as const;

export function toAnthropicParams(request: ProviderRequest): MessageCreateParamsStreaming {
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: withLastUserBreakpoint(request.messages.map(toMessageParam)),
    stream: true,
  };
  // The system prompt is the stable prefix of every request: cache it.
  if (request.system !== '') params.system = [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) params.tools = request.tools.map(toTool);
  if (request.thinkingBudget !== undefined) {
    params.thinking = { type: 'enabled', budget_tokens: request.thinkingBudget };
  }
  return params;
}

export function toTool(spec: ToolSpec): Tool {
  return {
    name: spec.name,
    description: spec.description,
    // The API requires `type: "object"` at the top; zod-generated schemas already carry it.
    input_schema: { type: 'object', ...spec.inputSchema },
  };
}

export function toMessageParam(message: Message): MessageParam {
  if (message.role === 'user') return { role: 'user', content: message.content.map(userBlock) };
  const content = message.content.flatMap(assistantBlock);
  // Only another vendor's thinking was in it; the API refuses an empty assistant turn.
  return { role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no text)' }] };
}

/**
 * Tool-use ids must match `^[a-zA-Z0-9_-]+$`. Ids made by other vendors (a
 * history begun on another model) are mapped the same way in the call and in
 * its result, so the pair still matches.
 */
export function anthropicToolId(id: string): string {
  return /^[a-zA-Z0-9_-]+$/.test(id) ? id : id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'toolu_empty';
}

function userBlock(part: UserPart): ContentBlockParam {
  switch (part.type) {
    case 'text':
      return textBlock(part);
    case 'image':
      return imageBlock(part);
    case 'tool_result': {
      const block: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: anthropicToolId(part.toolUseId),
        content: part.content.map((c) => (c.type === 'text' ? textBlock(c) : imageBlock(c))),
      };
      if (part.isError) block.is_error = true;
      return block;
    }
  }
}

function assistantBlock(part: AssistantPart): ContentBlockParam[] {
  switch (part.type) {
    case 'text':
      return [textBlock(part)];
    case 'thinking':
      // Another vendor's reasoning cannot be verified here: dropped, as when switching models.
      if (part.source !== undefined) return [];
      // Sent back byte for byte: the API verifies the signature against the text.
      return [{ type: 'thinking', thinking: part.thinking, signature: part.signature }];
    case 'redacted_thinking':
      return part.source === undefined ? [{ type: 'redacted_thinking', data: part.data }] : [];
    case 'tool_use':
      return [{ type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: part.input }];
  }
}

function textBlock(part: TextPart): TextBlockParam {
  return { type: 'text', text: part.text };
}

function imageBlock(part: ImagePart): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
}

/**
 * Marks the last block of the last user message as a cache breakpoint, as
 * Claude Code does: the next request repeats this whole prefix, so it is read
 * from the cache instead of being billed again.
 */
export function withLastUserBreakpoint(messages: MessageParam[]): MessageParam[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || message.role !== 'user' || typeof message.content === 'string') continue;
    const last = message.content.at(-1);
    if (last === undefined) return messages;
    const marked: MessageParam = { role: 'user', content: [...message.content.slice(0, -1), withCacheControl(last)] };
    return [...messages.slice(0, i), marked, ...messages.slice(i + 1)];
  }
  return messages;
}

function withCacheControl(block: ContentBlockParam): ContentBlockParam {
  switch (block.type) {
    case 'text':
    case 'image':
    case 'tool_result':
      return { ...block, cache_control: EPHEMERAL };
    default:
      // User messages only ever hold the three kinds above; anything else is left unmarked.
      return block;
  }
}
