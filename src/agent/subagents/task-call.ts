/** One Task call: the sub-agent planned, its worktree checked, launched, and (in the foreground) its outcome as the tool's result. */
import { ToolError, type ToolContext, type ToolResult } from '../../tools/index.ts';
import type { SubagentHost } from './host.ts';
import { planSubagent, type TaskInput } from './plan.ts';
import { runSubagent } from './run-subagent.ts';
import { outcomeText } from './summary.ts';
import { repoInfo } from './worktree.ts';

export async function runTaskCall(host: SubagentHost, input: TaskInput, ctx: ToolContext): Promise<ToolResult> {
  const plan = planSubagent(host, input);
  if (plan.isolation === 'worktree') {
    const repo = await repoInfo(plan.settings.cwd);
    const missing = !repo ? `${plan.settings.cwd} is not inside a git repository` : !repo.head ? 'the repository has no commits yet' : undefined;
    if (missing !== undefined) {
      if (plan.isolationExplicit) {
        throw new ToolError(`isolation "worktree" is not possible: ${missing}. Use isolation "none" to let the sub-agent work in this folder.`);
      }
      plan.isolation = 'none';
      plan.notes.push(`It ran without worktree isolation, in your folder: ${missing}.`);
    }
  }
  const { manager } = host.support;
  const agentId = manager.newAgentId();
  const { done } = manager.launch({
    agentId,
    parentSessionId: host.sessionId,
    parentToolUseId: ctx.toolUseId,
    description: plan.description,
    ...(plan.agentName === undefined ? {} : { agent: plan.agentName }),
    background: plan.background,
    ...(plan.background ? {} : { parentSignal: ctx.signal }),
    inheritSlot: !plan.background && host.depth > 0,
    run: (signal, report) => runSubagent(host, plan, { agentId, parentToolUseId: ctx.toolUseId }, signal, report),
  });
  if (plan.background) {
    return {
      content: `Started background sub-agent ${agentId} ("${plan.description}"). Check on it with TaskStatus and collect its answer with TaskResult (agent_id "${agentId}").`,
      display: { type: 'text', text: `background agent ${agentId}` },
    };
  }
  const outcome = await done;
  const text = outcomeText({ agentId, description: plan.description, isolation: plan.isolation }, outcome);
  return {
    content: text,
    isError: outcome.status !== 'done',
    display: { type: 'text', text: `agent ${agentId} ${outcome.status}${outcome.changes ? ` — ${outcome.changes.files.length} file(s) on ${outcome.changes.branch}` : ''}` },
  };
}
