/** The Anthropic request body written from each message's JSON kept once is the same text the SDK's JSON.stringify wrote. */
import { expect, test } from 'bun:test';
import { toAnthropicParams } from '../../src/providers/anthropic/convert.ts';
import { anthropicBody } from '../../src/providers/anthropic/request-body.ts';
import type { Message, ProviderRequest, ToolSpec } from '../../src/providers/index.ts';

const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

const tools: ToolSpec[] = [
  { name: 'Read', description: 'Reads a file "quoted" \u2028 with odd text', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
  { name: 'mcp__s__t', description: '', inputSchema: { properties: {} } },
];

/** A history with every part kind, built turn by turn as a session builds it (the same objects each turn). */
function history(turns: number): Message[] {
  const out: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'first\nline \u0000 "x"' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0K' }] }];
  for (let i = 0; i < turns; i++) {
    out.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `why ${i}`, signature: 'sig==' },
        { type: 'redacted_thinking', data: 'Emw' },
        { type: 'text', text: `step ${i} ☃` },
        { type: 'tool_use', id: i % 2 === 0 ? `toolu_${i}` : `call:${i}`, name: 'Read', input: { file_path: `f${i}.txt`, nested: { a: [1, null, 'é'] } } },
      ],
    });
    out.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: i % 2 === 0 ? `toolu_${i}` : `call:${i}`, content: [{ type: 'text', text: `${i}\tcontent` }, { type: 'image', mediaType: 'image/jpeg', data: '/9j/' }], isError: i % 3 === 0 }] });
  }
  return out;
}

test('the same text as JSON.stringify(toAnthropicParams(request)), turn after turn, for every shape of request', () => {
  const messages = history(6);
  for (let n = 1; n <= messages.length; n++) {
    const base: ProviderRequest = { model: 'claude-sonnet-4-5', system: 'You are "moat".', messages: messages.slice(0, n), tools, maxTokens: 8192 };
    for (const request of [base, { ...base, system: '' }, { ...base, tools: [] }, { ...base, thinkingBudget: 2048 }]) {
      expect(text(anthropicBody(request))).toBe(JSON.stringify(toAnthropicParams(request)));
    }
  }
  // A last user message with nothing in it carries no breakpoint; the one before it is not marked either.
  const empty: ProviderRequest = { model: 'm', system: 's', messages: [...messages, { role: 'user', content: [] }], tools, maxTokens: 1 };
  expect(text(anthropicBody(empty))).toBe(JSON.stringify(toAnthropicParams(empty)));
  // Only assistant turns: nothing is marked.
  const noUser: ProviderRequest = { model: 'm', system: 's', messages: [messages[1]!], tools: [], maxTokens: 1 };
  expect(text(anthropicBody(noUser))).toBe(JSON.stringify(toAnthropicParams(noUser)));
});
