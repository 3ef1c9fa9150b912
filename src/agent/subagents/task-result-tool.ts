/** The TaskResult tool: waits for background sub-agents and returns their answers. */
import { defineTool, ToolError, type AnyTool, type ToolResult } from '../../tools/index.ts';
import { inputJsonSchemaOf } from '../../util/index.ts';
import { DEFAULT_RESULT_TIMEOUT_MS, taskResultInput } from './task-inputs.ts';
import type { SubagentHost } from './host.ts';
import type { AgentInfo, SubagentOutcome } from './manager.ts';
import description from './task-result.md' with { type: 'text' };
import { outcomeText } from './summary.ts';

export { DEFAULT_RESULT_TIMEOUT_MS, MAX_RESULT_TIMEOUT_MS } from './task-inputs.ts';

/** Resolves with the outcomes, or undefined for those still running when the time is up or the call is aborted. */
async function waitAll(outcomes: Promise<SubagentOutcome>[], timeoutMs: number, signal: AbortSignal): Promise<(SubagentOutcome | undefined)[]> {
  const settled: (SubagentOutcome | undefined)[] = outcomes.map(() => undefined);
  const all = Promise.all(outcomes.map((p, i) => p.then((o) => (settled[i] = o))));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([all, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  return settled;
}

export function taskResultTool(host: SubagentHost): AnyTool {
  return defineTool({
    name: 'TaskResult',
    description: description.trim(),
    get inputSchema() {
      return taskResultInput();
    },
    jsonSchema: inputJsonSchemaOf('agent/subagents/task-inputs.ts', 'taskResultInput'),
    effect: 'read',
    intent(input) {
      return { ruleName: 'Task', paths: [], summary: input.agent_id ? `wait for ${input.agent_id}` : 'wait for background sub-agents' };
    },
    async execute(input, ctx): Promise<ToolResult> {
      const { manager } = host.support;
      const mine = manager.list(host.sessionId);
      let wanted: AgentInfo[];
      if (input.agent_id !== undefined) {
        const one = mine.find((a) => a.agentId === input.agent_id);
        if (!one) {
          throw new ToolError(`No sub-agent ${input.agent_id} of yours. ${mine.length > 0 ? `Yours: ${mine.map((a) => a.agentId).join(', ')}.` : 'You have started none.'}`);
        }
        wanted = [one];
      } else {
        wanted = mine.filter((a) => a.background);
        if (wanted.length === 0) return { content: 'You have no background sub-agents.' };
      }
      const timeoutMs = input.timeout_ms ?? DEFAULT_RESULT_TIMEOUT_MS;
      const outcomes = await waitAll(
        wanted.map((a) => manager.outcome(a.agentId)!),
        timeoutMs,
        ctx.signal,
      );
      const texts = wanted.map((a, i) => {
        const o = outcomes[i];
        if (o) return outcomeText({ agentId: a.agentId, description: a.description, isolation: a.worktree ? 'worktree' : 'none' }, o);
        const now = manager.get(a.agentId);
        return `Sub-agent ${a.agentId} ("${a.description}") is still ${now?.status ?? 'running'} after ${Math.round(timeoutMs / 1000)}s (${now?.turns ?? 0} turns so far, last: ${now?.lastActivity ?? '?'}). Call TaskResult again to keep waiting.`;
      });
      return { content: texts.join('\n\n'), isError: outcomes.some((o) => o !== undefined && o.status !== 'done') };
    },
  }) as AnyTool;
}
