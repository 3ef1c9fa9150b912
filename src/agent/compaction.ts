/** When the context is nearly full and how the history is replaced by a summary. */
import type { Message, Provider, ProviderRequest, Usage, UserMessage } from '../providers/index.ts';
import { addUsage, ZERO_USAGE } from '../providers/index.ts';
import { mergeConsecutiveUsers } from './history.ts';
import { contextWindow, type ModelLookup } from './pricing.ts';
import { streamWithRetry } from './retry.ts';

/** Compact once the last request filled this share of the model's context window. */
export const COMPACT_AT = 0.8;

/** Tokens the last request put in the context: everything it read plus what it wrote. */
export function contextTokens(u: Usage): number {
  return u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens;
}

export function needsCompaction(lastUsage: Usage | undefined, model: string, models?: ModelLookup): boolean {
  return lastUsage !== undefined && contextTokens(lastUsage) >= COMPACT_AT * contextWindow(model, models);
}

const SUMMARY_REQUEST = `The conversation so far is about to be replaced by a summary, because it no longer fits the context window. Write that summary now. Do not call any tool.

Include, in this order:
1. The user's requests, quoted verbatim where they are short, and the current task.
2. What has been done: files read and changed (with paths), commands run and what they showed, decisions made and why.
3. Errors met and how they were handled.
4. What remains to be done, and the very next step.

Be specific (paths, names, numbers); leave out pleasantries. The summary is all you will remember.`;

export const SUMMARY_PREFIX =
  'This session continues from an earlier conversation that was compacted to fit the context window. Summary of everything before this point:\n\n';

export function summaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: [{ type: 'text', text: `${SUMMARY_PREFIX}${summary.trim()}\n\nContinue from where the conversation left off.` }],
  };
}

/**
 * `usage`: every summary request's, to account for. `read`: the tokens of the history the summary was made from;
 * `wrote`: the summary's.
 * `dropped`: the oldest messages left out because even the summary request did not fit.
 */
export type CompactionOutcome = { ok: true; summary: string; usage: Usage; read: number; wrote: number; dropped: number } | { ok: false; message: string; usage: Usage };

/** Summary requests refused as too long are tried again this many times, each on the later half of what was left. */
const MAX_TRUNCATIONS = 2;

/**
 * Where a shorter history may start: the first user prompt (a user message
 * without tool results, whose calls would be cut off from them) at or after
 * the middle; undefined when there is none.
 */
export function laterStart(messages: readonly Message[]): number | undefined {
  for (let i = Math.max(1, Math.floor(messages.length / 2)); i < messages.length; i++) {
    const m = messages[i];
    if (m?.role === 'user' && m.content.every((p) => p.type !== 'tool_result')) return i;
  }
  return undefined;
}

/**
 * Asks the model for a summary of the history. The tool specs are sent along
 * because the API refuses tool_use blocks in a request that defines no tools;
 * the instruction forbids calling them. A history the API refuses as too long
 * (the compaction after such a refusal) loses its oldest half and is tried
 * again, as Claude Code does: a summary of the recent part beats none.
 */
export async function summarize(
  provider: Provider,
  request: Omit<ProviderRequest, 'messages'> & { messages: Message[] },
  opts: { signal: AbortSignal; idleTimeoutMs: number; retryBaseMs: number; instructions?: string },
): Promise<CompactionOutcome> {
  let history = request.messages;
  let usage = ZERO_USAGE;
  for (let truncations = 0; ; truncations++) {
    const outcome = await summarizeOnce(provider, { ...request, messages: history }, opts);
    usage = addUsage(usage, outcome.usage);
    if (outcome.ok) {
      const read = contextTokens(outcome.usage) - outcome.usage.outputTokens;
      return { ok: true, summary: outcome.summary, usage, read, wrote: outcome.usage.outputTokens, dropped: request.messages.length - history.length };
    }
    const start = outcome.tooLong && truncations < MAX_TRUNCATIONS ? laterStart(history) : undefined;
    if (start === undefined) return { ok: false, message: outcome.message, usage };
    history = history.slice(start);
  }
}

async function summarizeOnce(
  provider: Provider,
  request: Omit<ProviderRequest, 'messages'> & { messages: Message[] },
  opts: { signal: AbortSignal; idleTimeoutMs: number; retryBaseMs: number; instructions?: string },
): Promise<{ ok: true; summary: string; usage: Usage } | { ok: false; message: string; usage: Usage; tooLong: boolean }> {
  // The user's own instructions (`/compact focus on the tests`) follow the standard request.
  const ask = opts.instructions ? `${SUMMARY_REQUEST}\n\nAdditional instructions from the user:\n${opts.instructions}` : SUMMARY_REQUEST;
  const messages = mergeConsecutiveUsers([...request.messages, { role: 'user', content: [{ type: 'text', text: ask }] }]);
  for await (const item of streamWithRetry(provider, { ...request, messages }, {
    signal: opts.signal,
    idleTimeoutMs: opts.idleTimeoutMs,
    baseDelayMs: opts.retryBaseMs,
  })) {
    if (item.kind !== 'event') continue;
    const ev = item.event;
    if (ev.type === 'stop') {
      const text = ev.message.content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('');
      if (!text.trim()) return { ok: false, message: 'the model returned an empty summary', usage: ev.usage, tooLong: false };
      return { ok: true, summary: text, usage: ev.usage };
    }
    if (ev.type === 'error') return { ok: false, message: ev.error.message, usage: ev.usage, tooLong: ev.error.reason === 'context_too_long' };
  }
  return { ok: false, message: 'the summary stream ended without a result', usage: ZERO_USAGE, tooLong: false };
}
