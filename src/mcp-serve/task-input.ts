/** The inputs and the structured result of the `moat` and `moat_reply` tools: the one source of their JSON Schemas. */
import { z } from 'zod';
import { PERMISSION_MODES } from '../contracts/index.ts';

/** What a caller may set for a run; the same for a new task and a reply. */
const runOptions = {
  cwd: z.string().optional().describe('The folder moat works in (absolute; default: the folder `moat mcp serve` was started in).'),
  model: z.string().optional().describe('The model, e.g. claude-sonnet-4-5 or openai/gpt-5 (default: the configured one).'),
  permissionMode: z
    .enum(PERMISSION_MODES)
    .optional()
    .describe(
      'How calls that would need approval are decided: nobody can be asked, so in "default" they are denied; "acceptEdits" allows edits in the folder; "plan" is read-only; "bypassPermissions" allows everything.',
    ),
  allowedTools: z.array(z.string()).optional().describe('Permission rules that allow calls without asking, e.g. ["Edit", "Bash(npm test)"].'),
  disallowedTools: z.array(z.string()).optional().describe('Permission rules that deny calls, e.g. ["Bash(rm *)", "WebFetch"].'),
  maxTurns: z.number().int().positive().optional().describe('Stop after this many model turns.'),
};

export const taskInput = {
  prompt: z.string().min(1).describe('The task, in words, as you would give it to a coding agent.'),
  ...runOptions,
  worktree: z.boolean().optional().describe('Work in a fresh git worktree on its own branch; your files stay as they are until you merge it.'),
};

export const replyInput = {
  sessionId: z.string().min(1).describe('The sessionId a moat call returned.'),
  prompt: z.string().min(1).describe('What to tell the session next.'),
  ...runOptions,
};

export const taskOutput = {
  sessionId: z.string().describe('Pass it to moat_reply to go on with this conversation.'),
  result: z.string().describe("moat's final answer."),
  stopReason: z.enum(['end_turn', 'max_turns', 'budget', 'aborted', 'error', 'no_structured_output']),
  isError: z.boolean(),
  error: z.string().optional().describe('Why the run failed, when it did.'),
  costUsd: z.number(),
  turns: z.number(),
  durationMs: z.number(),
  filesChanged: z.array(z.string()).describe('Files the run created or changed (absolute paths).'),
  permissionDenials: z.array(z.object({ toolName: z.string(), message: z.string() })).describe('Calls refused by the mode or the rules.'),
  worktree: z
    .object({ id: z.string(), branch: z.string(), path: z.string(), changedFiles: z.array(z.string()) })
    .optional()
    .describe('With worktree: where the work went (merge with `moat worktrees merge <id>`).'),
};

const taskInputSchema = z.object(taskInput);
const replyInputSchema = z.object(replyInput);
const taskOutputSchema = z.object(taskOutput);

export type TaskInput = z.infer<typeof taskInputSchema>;
export type ReplyInput = z.infer<typeof replyInputSchema>;
export type TaskOutput = z.infer<typeof taskOutputSchema>;
export type RunOptions = Omit<TaskInput, 'prompt' | 'worktree'>;
