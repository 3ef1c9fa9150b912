/**
 * The inputs of the Task, TaskStatus and TaskResult tools, in their own module:
 * the tools' JSON Schemas are computed from them while bundling.
 */
import { z } from 'zod';
import { once } from '../../util/index.ts';

/** TaskResult waits this long by default, and at most this long. */
export const DEFAULT_RESULT_TIMEOUT_MS = 120_000;
export const MAX_RESULT_TIMEOUT_MS = 600_000;

export const taskInput = once(() =>
  z.strictObject({
    description: z.string().min(1).max(120).describe('A short (3-6 word) description of the task, shown to the user.'),
    prompt: z.string().min(1).describe('The complete brief for the sub-agent: it sees nothing else of this conversation.'),
    agent: z.string().min(1).optional().describe('A named agent definition to run (see the list in the description). Default: a general-purpose agent.'),
    // Claude Code's Task tool names the field subagent_type: a model or a prompt written for it works unchanged.
    subagent_type: z.string().min(1).optional().describe('The same as agent (Claude Code\'s name for it).'),
    tools: z
      .array(z.string().min(1))
      .optional()
      .describe('The tools it may use, a subset of yours (e.g. ["read", "grep", "glob"] for research). Default: your tools without task.'),
    max_turns: z.number().int().min(1).max(500).optional().describe('Most model turns it may take. Default 10.'),
    model: z.string().min(1).optional().describe('Model id or alias (sonnet, haiku, opus). Default: yours.'),
    isolation: z
      .enum(['worktree', 'none'])
      .optional()
      .describe('worktree: its own git worktree and branch; none: this folder. Default: worktree if it can edit files, else none.'),
    base: z
      .enum(['head', 'working-tree'])
      .optional()
      .describe('With worktree isolation: start from the last commit (head, default) or from the current files including uncommitted changes (working-tree).'),
    run_in_background: z.boolean().optional().describe('Return an agent id at once and let it run; collect it with TaskResult. Default false.'),
  }),
);

export const taskStatusInput = once(() =>
  z.strictObject({
    agent_id: z.string().min(1).optional().describe('The id task returned. Default: every sub-agent you started.'),
  }),
);

export const taskResultInput = once(() =>
  z.strictObject({
    agent_id: z.string().min(1).optional().describe('The id task returned. Default: wait for all your background sub-agents.'),
    timeout_ms: z.number().int().min(0).max(MAX_RESULT_TIMEOUT_MS).optional().describe(`How long to wait, in milliseconds (default ${DEFAULT_RESULT_TIMEOUT_MS}).`),
  }),
);
