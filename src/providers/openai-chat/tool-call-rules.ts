/**
 * Mistral's rules for tool calls on the Chat Completions wire, applied to the body just before it is sent
 * (the stored history keeps the original ids): every id exactly 9 letters and digits, and never a user
 * message right after tool results. Mistral answers 400 to either ("Tool call id was call_0fypS1hVX but
 * must be a-z, A-Z, 0-9, with a length of 9.", "Unexpected role 'user' after role 'tool'"), so a history
 * begun on another model could not fall back or switch to it.
 */
import type { ChatMessage } from './convert.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The same id for the same input, every time (a call and its result, this request and the next): Mistral's
 * own ids go through unchanged; any other becomes 9 characters of its SHA-256. Cutting ids down instead
 * would make `toolu_01A…` and `toolu_01B…` collide, as all Anthropic ids share their first characters.
 */
export function mistralToolId(id: string): string {
  if (/^[a-zA-Z0-9]{9}$/.test(id)) return id;
  // Bun's hasher, not node:crypto, which loads Node's streams (~10 ms) with the provider.
  const digest = new Bun.CryptoHasher('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += ALNUM[digest[i]! % ALNUM.length];
  return out;
}

export function applyMistralRules(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    // A short assistant turn bridges them, as OpenCode does for Mistral; the model reads it as its own ack.
    if (m.role === 'user' && out.at(-1)?.role === 'tool') out.push({ role: 'assistant', content: 'Done.' });
    if (m.role === 'tool') out.push({ ...m, tool_call_id: mistralToolId(m.tool_call_id) });
    else if (m.role === 'assistant' && m.tool_calls !== undefined) out.push({ ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, id: mistralToolId(c.id) })) });
    else out.push(m);
  }
  return out;
}
