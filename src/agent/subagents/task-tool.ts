/** The Task tool: starts a sub-agent in the foreground or in the background. */
import { defineTool, type AnyTool, type ToolResult } from '../../tools/index.ts';
import { inputJsonSchemaOf } from '../../util/index.ts';
import { taskInput } from './task-inputs.ts';
import type { SubagentHost } from './host.ts';
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
    get inputSchema() {
      return taskInput();
    },
    jsonSchema: inputJsonSchemaOf('agent/subagents/task-inputs.ts', 'taskInput'),
    // The tool itself changes nothing: the sub-agent's own calls pass its own permission checks.
    effect: 'read',
    intent(input) {
      return { ruleName: 'Task', subject: input.description, paths: [], summary: `${input.agent ?? input.subagent_type ?? 'sub-agent'}: ${input.description}` };
    },
    // The planning, the runner and the worktree code load with the first sub-agent, not with every session that offers the tool (task-call.ts).
    async execute(input, ctx): Promise<ToolResult> {
      // Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
      return (await import('./task-call.ts')).runTaskCall(host, input, ctx);
    },
  }) as AnyTool;
}
