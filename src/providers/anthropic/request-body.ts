/**
 * The Messages API request body as JSON text, each history message and tool
 * written once per process instead of once per request.
 */
import type { Message } from '../messages.ts';
import type { ProviderRequest, ToolSpec } from '../types.ts';
import { EPHEMERAL, toMessageParam, toTool, withLastUserBreakpoint } from './convert.ts';

/** A message does not change once it is in the history, nor a tool's spec once made: their JSON (UTF-8) is kept with them. */
const messageJson = new WeakMap<Message, Uint8Array>();
const toolJson = new WeakMap<ToolSpec, Uint8Array>();
const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);

function cached<K extends object>(map: WeakMap<K, Uint8Array>, key: K, write: (k: K) => unknown): Uint8Array {
  let bytes = map.get(key);
  if (bytes === undefined) {
    bytes = utf8(JSON.stringify(write(key)));
    map.set(key, bytes);
  }
  return bytes;
}

const COMMA = utf8(',');

/**
 * The same text as `JSON.stringify(toAnthropicParams(request))` (a test holds
 * them equal), in UTF-8, put together from each message's and tool's JSON
 * written once: sending the whole history through JSON.stringify every turn
 * was 1.9 ms of a 200-turn run's 4.8 ms median tool turn-around
 * (scripts/bench/turnaround.ts), and bytes go to fetch as they are (a string
 * holding any non-Latin-1 character is transcoded whole on each request). The
 * last user message carries the cache breakpoint, so it alone is written each time.
 */
export function anthropicBody(request: ProviderRequest): Uint8Array {
  const { messages } = request;
  let marked = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      marked = i;
      break;
    }
  }
  // The keys in toAnthropicParams's order: model, max_tokens, messages, stream, system, tools, thinking.
  const parts: Uint8Array[] = [utf8(`{"model":${JSON.stringify(request.model)},"max_tokens":${JSON.stringify(request.maxTokens)},"messages":[`)];
  messages.forEach((m, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(i === marked ? utf8(JSON.stringify(withLastUserBreakpoint([toMessageParam(m)])[0])) : cached(messageJson, m, toMessageParam));
  });
  let tail = '],"stream":true';
  if (request.system !== '') tail += `,"system":${JSON.stringify([{ type: 'text', text: request.system, cache_control: EPHEMERAL }])}`;
  if (request.tools.length > 0) {
    parts.push(utf8(`${tail},"tools":[`));
    request.tools.forEach((t, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(cached(toolJson, t, toTool));
    });
    tail = ']';
  }
  if (request.thinkingBudget !== undefined) tail += `,"thinking":${JSON.stringify({ type: 'enabled', budget_tokens: request.thinkingBudget })}`;
  parts.push(utf8(`${tail}}`));
  return Buffer.concat(parts);
}
