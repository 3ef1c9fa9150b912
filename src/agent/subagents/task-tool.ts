/** The Task tool: starts a sub-agent in the foreground or in the background. */
import { defineTool, ToolError, type AnyTool, type ToolResult } from '../../tools/index.ts';
import { inputJsonSchemaOf } from '../../util/index.ts';
import { taskInput } from './task-inputs.ts';
import type { SubagentHost } from './host.ts';
import { planSubagent } from './plan.ts';
import { outcomeText } from './summary.ts';
import description from './task.md' with { type: 'text' };

function agentList(host: SubagentHost): string {
  const defs = host.support.catalog?.list() ?? [];
  if (defs.length === 0) return '';
  return `\n\nNamed agents (the \`agent\` field):\n${defs.map((d) => `- ${d.name}: ${d.description.replace(/\s+/g, ' ').trim()}`).join('\n')}`;
}

/** The `task` tool of one session: it starts sub-agents as children of that session. */
export function taskTool(host: SubagentHost): AnyTool {
  return defineTool({
    name: 'Task',
    description: `${description.trim()}${agentList(host)}`,
    inputSchema: taskInput,
    jsonSchema: inputJsonSchemaOf('agent/subagents/task-inputs.ts', 'taskInput'),
    // The tool itself changes nothing: the sub-agent's own calls pass its own permission checks.
    effect: 'read',
    intent(input) {
      return { ruleName: 'Task', subject: input.description, paths: [], summary: `${input.agent ?? 'sub-agent'}: ${input.description}` };
    },
    async execute(input, ctx): Promise<ToolResult> {
      const plan = planSubagent(host, input);
      // The runner and the worktree code load with the first sub-agent, not with every session that offers the tool.
      const [{ runSubagent }, { repoInfo }] = await Promise.all([import('./run-subagent.ts'), import('./worktree.ts')]);
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
    },
  }) as AnyTool;
}
