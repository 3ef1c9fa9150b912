/**
 * Per-tool timeout and retry (`[tools.<name>] timeout`, `retry`), applied
 * around a call by the tool runner. A timeout applies to any tool; retries
 * only to calls that declare themselves idempotent (reads, GETs, read-only
 * WebAssembly tools) and only after a failure that may pass (a timeout, a
 * dropped connection, a 5xx, an unexpected exception) — never after a
 * refusal or a bad input, which would fail the same way again.
 */
import { runParsedTool } from './run-tool.ts';
import type { AnyTool, ToolContext, ToolResult } from './types.ts';

export interface ToolRunPolicy {
  timeoutMs?: number;
  retry?: { attempts: number; backoff: 'exponential' | 'fixed'; initialMs: number };
}

/** Whether running this call twice does no more than running it once. */
export function isIdempotent(tool: AnyTool, input: unknown): boolean {
  if (tool.idempotent !== undefined) return tool.idempotent(input as never);
  return tool.effect === 'read';
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${+(ms / 1000).toFixed(1)} s`;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

/**
 * Runs a validated call under its policy. `makeContext` is called per attempt
 * with that attempt's signal (the parent's, plus the timeout). Never throws.
 */
export async function runWithPolicy(tool: AnyTool, input: unknown, parent: ToolContext, policy: ToolRunPolicy | undefined): Promise<ToolResult> {
  if (policy === undefined || (policy.timeoutMs === undefined && policy.retry === undefined)) return runParsedTool(tool, input, parent);
  const attempts = policy.retry !== undefined && isIdempotent(tool, input) ? policy.retry.attempts : 1;
  const failures: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    const onParentAbort = () => controller.abort();
    parent.signal.addEventListener('abort', onParentAbort, { once: true });
    let timedOut = false;
    const timer = policy.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, policy.timeoutMs);
    let result = await runParsedTool(tool, input, { ...parent, signal: controller.signal });
    clearTimeout(timer);
    parent.signal.removeEventListener('abort', onParentAbort);
    if (parent.signal.aborted) return result;
    if (timedOut) result = { content: `${tool.name} timed out after ${seconds(policy.timeoutMs ?? 0)} ([tools.${tool.name}] timeout).`, isError: true, retryable: true };
    const failed = result.isError === true;
    if (!failed || result.retryable !== true || attempt >= attempts) {
      if (failures.length === 0) return result;
      const note = `[moat: ${failed ? 'failed' : 'succeeded'} on attempt ${attempt} of ${attempts}; earlier: ${failures.join('; ')}]`;
      const content = typeof result.content === 'string' ? `${result.content}\n\n${note}` : [...result.content, { type: 'text' as const, text: note }];
      return { ...result, content };
    }
    const first = (typeof result.content === 'string' ? result.content : result.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ')).split('\n')[0] ?? '';
    failures.push(`attempt ${attempt}: ${first.slice(0, 160)}`);
    const retry = policy.retry ?? { backoff: 'fixed' as const, initialMs: 0 };
    const wait = retry.backoff === 'exponential' ? retry.initialMs * 2 ** (attempt - 1) : retry.initialMs;
    parent.onUpdate({ type: 'text', text: `retry ${attempt + 1}/${attempts} in ${seconds(wait)}: ${first.slice(0, 80)}` });
    await sleep(wait, parent.signal);
    if (parent.signal.aborted) return result;
  }
}
