/**
 * Provider-neutral conversation model. Every provider adapter converts to and
 * from these shapes; the store persists them as JSON; the agent loop only ever
 * sees these.
 */

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  mediaType: ImageMediaType;
  /** base64 without a data: prefix */
  data: string;
}

/**
 * The wire format whose model wrote a thinking part. Absent means Anthropic
 * (also on Bedrock and Vertex), which is what every history stored before
 * other providers existed holds. Thinking only ever goes back to the format
 * that made it: another vendor cannot verify its signature.
 */
export type ThinkingSource = 'openai-responses' | 'openai-chat' | 'gemini';

/** Extended thinking. The signature must be sent back unchanged on later requests. */
export interface ThinkingPart {
  type: 'thinking';
  thinking: string;
  /** Anthropic: the signature; OpenAI Responses: the encrypted reasoning item; Gemini: the thought signature. */
  signature: string;
  source?: ThinkingSource;
}

/** Thinking the API returned encrypted; kept opaque and sent back as is. */
export interface RedactedThinkingPart {
  type: 'redacted_thinking';
  data: string;
  source?: ThinkingSource;
}

export interface ToolUsePart {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  /** Gemini's thought signature on a function call, sent back with it on later requests. */
  signature?: string;
}

export interface ToolResultPart {
  type: 'tool_result';
  toolUseId: string;
  content: (TextPart | ImagePart)[];
  isError: boolean;
}

export type UserPart = TextPart | ImagePart | ToolResultPart;
export type AssistantPart = TextPart | ThinkingPart | RedactedThinkingPart | ToolUsePart;

export interface UserMessage {
  role: 'user';
  content: UserPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
}

export type Message = UserMessage | AssistantMessage;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
  };
}

/** Why the model stopped. Mirrors Anthropic's stop_reason values, which OpenAI's map onto. */
export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'pause_turn' | 'refusal';

export function textOf(message: Message): string {
  return message.content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('');
}
