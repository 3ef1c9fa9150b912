/** The TaskStatus tool: what each sub-agent of this session is doing. */
import { defineTool, ToolError, type AnyTool } from '../../tools/index.ts';
import { inputJsonSchemaOf } from '../../util/index.ts';
import { taskStatusInput } from './task-inputs.ts';
import type { SubagentHost } from './host.ts';
import description from './task-status.md' with { type: 'text' };
import { statusLine } from './summary.ts';

export function taskStatusTool(host: SubagentHost): AnyTool {
  return defineTool({
    name: 'TaskStatus',
    description: description.trim(),
    get inputSchema() {
      return taskStatusInput();
    },
    jsonSchema: inputJsonSchemaOf('agent/subagents/task-inputs.ts', 'taskStatusInput'),
    effect: 'read',
    intent(input) {
      return { ruleName: 'Task', paths: [], summary: input.agent_id ? `status of ${input.agent_id}` : 'status of sub-agents' };
    },
    async execute(input) {
      const mine = host.support.manager.list(host.sessionId);
      if (input.agent_id !== undefined) {
        const one = mine.find((a) => a.agentId === input.agent_id);
        if (!one) {
          throw new ToolError(`No sub-agent ${input.agent_id} of yours. ${mine.length > 0 ? `Yours: ${mine.map((a) => a.agentId).join(', ')}.` : 'You have started none.'}`);
        }
        return { content: statusLine(one) };
      }
      return { content: mine.length > 0 ? mine.map((a) => statusLine(a)).join('\n') : 'You have started no sub-agents.' };
    },
  }) as AnyTool;
}
